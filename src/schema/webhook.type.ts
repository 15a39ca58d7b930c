import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { WebhookFlow } from '../entities';
import { toWebhookStepType, type WebhookStepType } from './webhook-step.type';

@ObjectType('PredefinedVariable', { simpleResolvers: true })
export class PredefinedVariableType {
  @Field()
  name!: string;

  @Field()
  value!: string;
}

@ObjectType('FlowVariable', { simpleResolvers: true, description: "A value extracted from an earlier step's response." })
export class FlowVariableType {
  @Field()
  name!: string;

  @Field({ description: 'Path into the step response, e.g. body.id or headers.x-id.' })
  location!: string;

  @Field(() => Int, { description: 'stepNumber of the step read.' })
  stepId!: number;

  @Field(() => String, { nullable: true })
  type!: string | null;

  @Field(() => String, { nullable: true })
  dataType!: string | null;

  @Field(() => String, { nullable: true, description: 'Fallback value.' })
  customValue!: string | null;
}

@ObjectType('EventFilters', { simpleResolvers: true, description: "Which records' events trigger the flow; null matches all." })
export class EventFiltersType {
  @Field(() => String, { nullable: true })
  workspace!: string | null;

  @Field(() => ID, { nullable: true })
  aiAgentId!: string | null;

  @Field(() => ID, { nullable: true })
  campaignId!: string | null;
}

/** An outbound webhook flow. `steps` and `executions` resolve on demand. */
@ObjectType('WebhookFlow', { simpleResolvers: true })
export class WebhookFlowType {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  createdBy!: string | null;

  @Field()
  workspaceId!: string;

  @Field()
  name!: string;

  @Field()
  logo!: string;

  @Field(() => Int)
  retryDelay!: number;

  @Field()
  retryDelayUnit!: string;

  @Field(() => Int)
  maxRetries!: number;

  @Field({ description: 'running, stopped, deleted, or another documented value.' })
  status!: string;

  @Field()
  isTemplate!: boolean;

  @Field()
  flowDirection!: string;

  @Field(() => GraphQLJSONObject)
  flowMapping!: Record<string, unknown>;

  @Field()
  tagName!: string;

  @Field()
  categoryName!: string;

  @Field(() => [PredefinedVariableType])
  predefinedVariables!: PredefinedVariableType[];

  @Field(() => [FlowVariableType])
  variables!: FlowVariableType[];

  @Field(() => [String], { description: 'Events that trigger the flow (docs/flows.md, "Event subscriptions").' })
  events!: string[];

  @Field(() => EventFiltersType)
  eventFilters!: EventFiltersType;

  @Field(() => String, { nullable: true, description: 'Signing secret (whsec_...): only in the answer to createWebhook.' })
  secret!: string | null;

  @Field()
  createdAt!: Date;

  @Field()
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
    retryDelayUnit: f.retryDelayUnit,
    maxRetries: f.maxRetries,
    status: f.status,
    isTemplate: f.isTemplate,
    flowDirection: f.flowDirection,
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
