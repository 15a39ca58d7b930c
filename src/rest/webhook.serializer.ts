import type { WebhookExecution, WebhookStep } from '../entities';
import type { FlowView } from '../services/webhook.service';
import { iso, refId } from './serialize';

export function serializeExecution(e: WebhookExecution) {
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

export function serializeStep(s: WebhookStep) {
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

/**
 * Webhook flow, interface 2.5, field for field; `executions` holds the latest 20, newest
 * first. `secret` appears only in the answer to create.
 */
export function serializeFlow({ flow: f, executions, secret }: FlowView) {
  return {
    id: f.id,
    created_by: f.createdBy,
    company_id: refId(f.company),
    workspace_id: f.workspaceId,
    name: f.name,
    logo: f.logo,
    retry_delay: f.retryDelay,
    retry_delay_unit: f.retryDelayUnit,
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
    ...(secret ? { secret } : {}),
  };
}
