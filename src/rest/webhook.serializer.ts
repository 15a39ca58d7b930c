import { z } from 'zod';
import type { WebhookExecution, WebhookStep } from '../entities';
import { EXECUTION_STATUSES } from '../entities/webhook-execution.entity';
import { FLOW_DIRECTIONS, FLOW_EVENTS, FLOW_STATUSES } from '../entities/webhook-flow.entity';
import { WEBHOOK_METHODS } from '../entities/webhook-step.entity';
import { RETRY_UNITS } from '../services/input/campaign.input';
import type { FlowView, FlowWithSecret } from '../services/webhook.service';
import { iso, refId, shape } from './serialize';


/** Execution, interface 2.5. */
export const executionShape = z
  .strictObject({
    id: shape.id(),
    status: z.enum(EXECUTION_STATUSES),
    attempt_number: z.int(),
    executed_at: shape.timestamp().nullable(),
    created_at: shape.timestamp(),
    updated_at: shape.timestamp(),
    next_retry_at: shape.timestamp().nullable(),
    finished_at: shape.timestamp().nullable(),
    error_message: z.string().nullable(),
  })
  .meta({ id: 'WebhookExecution' });

/** Step, interface 2.5. */
export const stepShape = z
  .strictObject({
    id: shape.id(),
    step_number: z.int(),
    webhook_url: z.string(),
    webhook_method: z.enum(WEBHOOK_METHODS),
    webhook_timeout: z.int(),
    retry_limit: z.int(),
    timeout: z.int(),
    created_at: shape.timestamp(),
    updated_at: shape.timestamp(),
    deleted_at: shape.timestamp().nullable(),
    webhook_url_params: z.record(z.string(), z.string()),
    webhook_headers: z.record(z.string(), z.string()),
    webhook_body: z.unknown(),
    depends_on_step: z.int().nullable(),
    success_condition: z.unknown(),
  })
  .meta({ id: 'WebhookStep' });

/** Webhook flow, interface 2.5, field for field; `executions` holds the latest 20, newest first. */
export const flowShape = z
  .strictObject({
    id: shape.id(),
    created_by: z.string().nullable(),
    company_id: shape.id().nullable(),
    workspace_id: z.string(),
    name: z.string(),
    logo: z.string(),
    retry_delay: z.int(),
    retry_delay_unit: z.enum(RETRY_UNITS),
    max_retries: z.int(),
    status: z.enum(FLOW_STATUSES),
    created_at: shape.timestamp(),
    updated_at: shape.timestamp(),
    executions: z.array(executionShape),
    steps: z.array(stepShape),
    is_template: z.boolean(),
    flow_direction: z.enum(FLOW_DIRECTIONS),
    flow_mapping: shape.json(),
    tag_name: z.string(),
    category_name: z.string(),
    deleted_at: shape.timestamp().nullable(),
    predefinedVariables: z.array(z.strictObject({ name: z.string(), value: z.string() })),
    /** `type`, `dataType` and `customValue` are absent when the flow was saved without them. */
    variables: z.array(
      z.strictObject({
        name: z.string(),
        location: z.string(),
        stepId: z.int(),
        type: z.string().optional(),
        dataType: z.string().optional(),
        customValue: z.string().optional(),
      }),
    ),
    events: z.array(z.enum(FLOW_EVENTS)),
    event_filters: z.strictObject({ workspace: z.string().optional(), ai_agent_id: shape.id().optional(), campaign_id: shape.id().optional() }),
  })
  .meta({ id: 'WebhookFlow' });

/** A flow and its signing secret: the answers to create, rotate-secret and a template's use, never a read. */
export const flowWithSecretShape = flowShape
  .extend({ secret: z.string().startsWith('whsec_').meta({ examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] }) })
  .meta({ id: 'WebhookFlowWithSecret' });

export function serializeExecution(e: WebhookExecution): z.output<typeof executionShape> {
  return {
    id: e.id,
    status: e.status,
    attempt_number: e.attemptNumber,
    executed_at: iso(e.executedAt),
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
    next_retry_at: iso(e.nextRetryAt),
    finished_at: iso(e.finishedAt),
    error_message: e.errorMessage,
  };
}

export function serializeStep(s: WebhookStep): z.output<typeof stepShape> {
  return {
    id: s.id,
    step_number: s.stepNumber,
    webhook_url: s.webhookUrl,
    webhook_method: s.webhookMethod,
    webhook_timeout: s.webhookTimeout,
    retry_limit: s.retryLimit,
    timeout: s.timeout,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    deleted_at: iso(s.deletedAt),
    webhook_url_params: s.webhookUrlParams,
    webhook_headers: s.webhookHeaders,
    webhook_body: s.webhookBody ?? null,
    depends_on_step: s.dependsOnStep,
    success_condition: s.successCondition ?? null,
  };
}

export function serializeFlow({ flow: f, executions }: FlowView): z.output<typeof flowShape> {
  return {
    id: f.id,
    created_by: f.createdBy,
    company_id: refId(f.company),
    workspace_id: f.workspaceId,
    name: f.name,
    logo: f.logo,
    retry_delay: f.retryDelay,
    // Stored only through the input's enum.
    retry_delay_unit: f.retryDelayUnit as (typeof RETRY_UNITS)[number],
    max_retries: f.maxRetries,
    status: f.status,
    created_at: iso(f.createdAt),
    updated_at: iso(f.updatedAt),
    executions: executions.map(serializeExecution),
    steps: [...f.steps.getItems()].sort((a, b) => a.stepNumber - b.stepNumber).map(serializeStep),
    is_template: f.isTemplate,
    flow_direction: f.flowDirection,
    flow_mapping: f.flowMapping,
    tag_name: f.tagName,
    category_name: f.categoryName,
    deleted_at: iso(f.deletedAt),
    predefinedVariables: f.predefinedVariables,
    variables: f.variables,
    events: f.events,
    event_filters: f.eventFilters,
  };
}

export const serializeFlowWithSecret = (view: FlowWithSecret): z.output<typeof flowWithSecretShape> => ({ ...serializeFlow(view), secret: view.secret });
