import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';

@InputType('WebhookStepInput', { description: 'One HTTP request of a flow.' })
export class WebhookStepInput {
  @Field(() => Int, { description: 'Position of the step in the flow.' })
  stepNumber!: number;

  @Field({ description: 'http(s) URL; {{placeholders}} allowed.' })
  webhookUrl!: string;

  @Field({ nullable: true, description: 'GET, POST, PUT, DELETE, PATCH, OPTIONS or HEAD.' })
  webhookMethod?: string;

  @Field(() => Int, { nullable: true, description: 'Seconds per request, 1 to 300.' })
  webhookTimeout?: number;

  @Field(() => Int, { nullable: true, description: 'Retries of the step within one attempt, 0 to 10.' })
  retryLimit?: number;

  @Field(() => Int, { nullable: true, description: 'Seconds for the step overall, 1 to 3600.' })
  timeout?: number;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Query parameters, key to value; may hold {{placeholders}}.' })
  webhookUrlParams?: Record<string, string>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Request headers, key to value; may hold {{placeholders}}.' })
  webhookHeaders?: Record<string, string>;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Request body, any JSON; may hold {{placeholders}}.' })
  webhookBody?: unknown;

  @Field(() => Int, { nullable: true, description: 'StepNumber of an earlier step that must succeed first; null for none.' })
  dependsOnStep?: number | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'JSON Logic rule over {status, headers, body}; null means HTTP 2xx.' })
  successCondition?: unknown;
}

@InputType('PredefinedVariableInput', { description: 'A fixed variable of a flow.' })
export class PredefinedVariableInput {
  @Field({ description: 'Variable name, as in `{{name}}`.' })
  name!: string;

  @Field({ description: 'The value.' })
  value!: string;
}

@InputType('FlowVariableInput', { description: 'A value to extract from an earlier step\'s response.' })
export class FlowVariableInput {
  @Field({ description: 'Variable name, as in `{{name}}`.' })
  name!: string;

  @Field({ description: 'Path into the step response, e.g. body.id or headers.x-id.' })
  location!: string;

  @Field(() => Int, { description: 'StepNumber of the step read.' })
  stepId!: number;

  @Field({ nullable: true, description: 'Kind of variable, free text.' })
  type?: string;

  @Field({ nullable: true, description: 'Type of the value, free text (e.g. string).' })
  dataType?: string;

  @Field({ nullable: true, description: 'Fallback value when the path leads nowhere.' })
  customValue?: string;
}

@InputType('EventFiltersInput', { description: 'Which records\' events trigger the flow; a filter left out matches all of your company\'s.' })
export class EventFiltersInput {
  @Field(() => String, { nullable: true, description: 'Only records of this workspace.' })
  workspace?: string;

  @Field(() => ID, { nullable: true, description: 'An agent of your company.' })
  aiAgentId?: string;

  @Field(() => ID, { nullable: true, description: 'A campaign of your company.' })
  campaignId?: string;
}

/** Partial update; `steps`, `variables` and `predefinedVariables`, when sent, replace the old ones. */
@InputType('UpdateWebhookInput', { description: 'Partial update: steps, variables and predefinedVariables, when sent, replace the stored ones whole.' })
export class UpdateWebhookInput {
  @Field({ nullable: true, description: 'Name of the flow.' })
  name?: string;

  @Field({ nullable: true, description: 'Logo URL.' })
  logo?: string;

  @Field(() => Int, { nullable: true, description: 'Delay before a failed attempt is retried, in `retryDelayUnit`.' })
  retryDelay?: number;

  @Field({ nullable: true, description: 'seconds, minutes, hours or days.' })
  retryDelayUnit?: string;

  @Field(() => Int, { nullable: true, description: 'Attempts after the first, 0 to 100.' })
  maxRetries?: number;

  @Field({ nullable: true, description: 'running, stopped, or another value the interface names.' })
  status?: string;

  @Field({ nullable: true, description: 'inbound or outbound.' })
  flowDirection?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form mapping data of the flow.' })
  flowMapping?: Record<string, unknown>;

  @Field({ nullable: true, description: 'Tag of the flow, free text.' })
  tagName?: string;

  @Field({ nullable: true, description: 'Category of the flow, free text.' })
  categoryName?: string;

  @Field(() => [PredefinedVariableInput], { nullable: true, description: 'Fixed variables, used when neither the trigger nor a step gives one.' })
  predefinedVariables?: PredefinedVariableInput[];

  @Field(() => [FlowVariableInput], { nullable: true, description: 'Values to extract from earlier steps (`{{name}}` placeholders use them).' })
  variables?: FlowVariableInput[];

  @Field(() => [WebhookStepInput], { nullable: true, description: 'The HTTP requests of the flow.' })
  steps?: WebhookStepInput[];

  @Field(() => String, { nullable: true, description: 'Workspace slug (`default` when left out).' })
  workspace?: string | null;

  @Field(() => [String], { nullable: true, description: 'Events that trigger the flow: call.started, call.ended, call.analyzed, campaign.completed.' })
  events?: string[];

  @Field(() => EventFiltersInput, { nullable: true, description: 'Which records\' events trigger the flow; left out: all of your company\'s.' })
  eventFilters?: EventFiltersInput;
}

@InputType('CreateWebhookInput', { description: 'A new flow; its signing secret is made by the service.' })
export class CreateWebhookInput extends UpdateWebhookInput {
  @Field({ description: 'Name of the flow.' })
  override name!: string;
}
