import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';

@InputType('WebhookStepInput')
export class WebhookStepInput {
  @Field(() => Int)
  stepNumber!: number;

  @Field({ description: 'http(s) URL; {{placeholders}} allowed.' })
  webhookUrl!: string;

  @Field({ nullable: true, description: 'GET, POST, PUT, DELETE, PATCH, OPTIONS or HEAD.' })
  webhookMethod?: string;

  @Field(() => Int, { nullable: true })
  webhookTimeout?: number;

  @Field(() => Int, { nullable: true })
  retryLimit?: number;

  @Field(() => Int, { nullable: true })
  timeout?: number;

  @Field(() => GraphQLJSONObject, { nullable: true })
  webhookUrlParams?: Record<string, string>;

  @Field(() => GraphQLJSONObject, { nullable: true })
  webhookHeaders?: Record<string, string>;

  @Field(() => GraphQLJSON, { nullable: true })
  webhookBody?: unknown;

  @Field(() => Int, { nullable: true })
  dependsOnStep?: number | null;

  @Field(() => GraphQLJSON, { nullable: true })
  successCondition?: unknown;
}

@InputType('PredefinedVariableInput')
export class PredefinedVariableInput {
  @Field()
  name!: string;

  @Field()
  value!: string;
}

@InputType('FlowVariableInput')
export class FlowVariableInput {
  @Field()
  name!: string;

  @Field()
  location!: string;

  @Field(() => Int)
  stepId!: number;

  @Field({ nullable: true })
  type?: string;

  @Field({ nullable: true })
  dataType?: string;

  @Field({ nullable: true })
  customValue?: string;
}

@InputType('EventFiltersInput', { description: 'Which records\' events trigger the flow; a filter left out matches all of your company\'s.' })
export class EventFiltersInput {
  @Field(() => String, { nullable: true })
  workspace?: string;

  @Field(() => ID, { nullable: true, description: 'An agent of your company.' })
  aiAgentId?: string;

  @Field(() => ID, { nullable: true, description: 'A campaign of your company.' })
  campaignId?: string;
}

/** Partial update; `steps`, `variables` and `predefinedVariables`, when sent, replace the old ones. */
@InputType('UpdateWebhookInput')
export class UpdateWebhookInput {
  @Field({ nullable: true })
  name?: string;

  @Field({ nullable: true })
  logo?: string;

  @Field(() => Int, { nullable: true })
  retryDelay?: number;

  @Field({ nullable: true, description: 'seconds, minutes, hours or days.' })
  retryDelayUnit?: string;

  @Field(() => Int, { nullable: true })
  maxRetries?: number;

  @Field({ nullable: true })
  status?: string;

  @Field({ nullable: true, description: 'inbound or outbound.' })
  flowDirection?: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  flowMapping?: Record<string, unknown>;

  @Field({ nullable: true })
  tagName?: string;

  @Field({ nullable: true })
  categoryName?: string;

  @Field(() => [PredefinedVariableInput], { nullable: true })
  predefinedVariables?: PredefinedVariableInput[];

  @Field(() => [FlowVariableInput], { nullable: true })
  variables?: FlowVariableInput[];

  @Field(() => [WebhookStepInput], { nullable: true })
  steps?: WebhookStepInput[];

  @Field(() => String, { nullable: true })
  workspace?: string | null;

  @Field(() => [String], { nullable: true, description: 'Events that trigger the flow: call.started, call.ended, call.analyzed, campaign.completed.' })
  events?: string[];

  @Field(() => EventFiltersInput, { nullable: true })
  eventFilters?: EventFiltersInput;
}

@InputType('CreateWebhookInput')
export class CreateWebhookInput extends UpdateWebhookInput {
  @Field()
  override name!: string;
}
