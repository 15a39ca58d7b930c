import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { WebhookFlow } from '../entities';
import { FlowDirection, FlowStatus, RetryDelayUnit } from './webhook.enum';
import { toWebhookStepType, type WebhookStepType } from './webhook-step.type';
import { Node } from './node.type';

@ObjectType('PredefinedVariable', { simpleResolvers: true, description: 'A fixed variable of a flow, used when neither the trigger nor a step gives it.' })
export class PredefinedVariableType {
  @Field({ description: 'Variable name, as in `{{name}}`.' })
  name!: string;

  @Field({ description: 'The value.' })
  value!: string;
}

@ObjectType('FlowVariable', { simpleResolvers: true, description: "A value extracted from an earlier step's response." })
export class FlowVariableType {
  @Field({ description: 'Variable name, as in `{{name}}`.' })
  name!: string;

  @Field({ description: 'Path into the step response, e.g. body.id or headers.x-id.' })
  location!: string;

  @Field(() => Int, { description: 'The stepNumber of the step read.' })
  stepId!: number;

  @Field(() => String, { nullable: true, description: 'Kind of variable, free text.' })
  type!: string | null;

  @Field(() => String, { nullable: true, description: 'Type of the value, free text (e.g. string).' })
  dataType!: string | null;

  @Field(() => String, { nullable: true, description: 'Fallback value.' })
  customValue!: string | null;
}

@ObjectType('EventFilters', { simpleResolvers: true, description: "Which records' events trigger the flow; null matches all." })
export class EventFiltersType {
  @Field(() => String, { nullable: true, description: 'Only records of this workspace.' })
  workspace!: string | null;

  @Field(() => ID, { nullable: true, description: 'Only calls of this agent.' })
  aiAgentId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Only records of this campaign.' })
  campaignId!: string | null;
}

/** An outbound webhook flow. `steps` and `executions` resolve on demand. */
@ObjectType('WebhookFlow', { implements: Node, simpleResolvers: true, description: 'An outbound webhook flow: HTTP steps run in order, with retries and tracked executions.' })
export class WebhookFlowType implements Node {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field(() => ID, { nullable: true, description: 'Id of the user who created the flow; null when unknown.' })
  createdBy!: string | null;

  @Field({ description: 'Workspace slug the record belongs to (`default` unless given).' })
  workspaceId!: string;

  @Field({ description: 'Name of the flow.' })
  name!: string;

  @Field({ description: 'Logo URL.' })
  logo!: string;

  @Field(() => Int, { description: 'Delay before a failed attempt is retried, in `retryDelayUnit`.' })
  retryDelay!: number;

  @Field(() => RetryDelayUnit, { description: 'Unit of `retryDelay`.' })
  retryDelayUnit!: RetryDelayUnit;

  @Field(() => Int, { description: 'Attempts after the first, 0 to 100.' })
  maxRetries!: number;

  @Field(() => FlowStatus, { description: 'Status of the flow: stopped refuses triggers.' })
  status!: FlowStatus;

  @Field({ description: 'True for the built-in catalogue, readable by every company and changed by none.' })
  isTemplate!: boolean;

  @Field(() => FlowDirection, { description: 'Direction of the flow.' })
  flowDirection!: FlowDirection;

  @Field(() => GraphQLJSONObject, { description: 'Free-form mapping data of the flow.' })
  flowMapping!: Record<string, unknown>;

  @Field({ description: 'Tag of the flow, free text.' })
  tagName!: string;

  @Field({ description: 'Category of the flow, free text.' })
  categoryName!: string;

  @Field(() => [PredefinedVariableType], { description: 'Fixed variables, used when neither the trigger nor a step gives one.' })
  predefinedVariables!: PredefinedVariableType[];

  @Field(() => [FlowVariableType], { description: 'Values to extract from earlier steps (`{{name}}` placeholders use them).' })
  variables!: FlowVariableType[];

  @Field(() => [String], { description: 'Events that trigger the flow (docs/flows.md, "Event subscriptions").' })
  events!: string[];

  @Field(() => EventFiltersType, { description: 'Which records\' events trigger the flow.' })
  eventFilters!: EventFiltersType;

  @Field(() => String, { nullable: true, description: 'Signing secret (whsec_...): only in the answer to createWebhook.' })
  secret!: string | null;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
  updatedAt!: Date;

  /** Steps already loaded with the flow, if any: spares the steps loader a query. */
  loadedSteps!: WebhookStepType[] | null;
}

/** The one mapping from a flow (as the webhook service returns it) to its GraphQL shape. */
export function toWebhookFlowType({ flow: f, secret }: { flow: WebhookFlow; secret?: string }): WebhookFlowType {
  return {
    id: f.id,
    createdBy: f.createdBy,
    workspaceId: f.workspaceId,
    name: f.name,
    logo: f.logo,
    retryDelay: f.retryDelay,
    retryDelayUnit: f.retryDelayUnit as RetryDelayUnit,
    maxRetries: f.maxRetries,
    status: f.status as FlowStatus,
    isTemplate: f.isTemplate,
    flowDirection: f.flowDirection as FlowDirection,
    flowMapping: f.flowMapping,
    tagName: f.tagName,
    categoryName: f.categoryName,
    predefinedVariables: f.predefinedVariables,
    variables: f.variables.map((v) => ({ ...v, type: v.type ?? null, dataType: v.dataType ?? null, customValue: v.customValue ?? null })),
    events: f.events,
    eventFilters: { workspace: f.eventFilters.workspace ?? null, aiAgentId: f.eventFilters.ai_agent_id ?? null, campaignId: f.eventFilters.campaign_id ?? null },
    secret: secret ?? null,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    loadedSteps: f.steps.isInitialized() ? f.steps.getItems().map(toWebhookStepType) : null,
  };
}
