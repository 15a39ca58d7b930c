import type { WebhookExecution, WebhookStepRun } from '../entities';
import type { ExecutionDetail } from '../services/webhook-execution.service';
import { iso, refId } from './serialize';
import { serializeExecution } from './webhook.serializer';

/** An execution as listed: the documented fields (interface 2.5) and its flow. */
export function serializeExecutionItem(e: WebhookExecution) {
  return { ...serializeExecution(e), flow_id: refId(e.flow) };
}

/** One step of one attempt, as logged: the request sent (secrets redacted) and the answer. */
export function serializeStepRun(r: WebhookStepRun) {
  return {
    attempt_number: r.attemptNumber,
    step_number: r.stepNumber,
    status: r.status,
    tries: r.tries,
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    duration_ms: r.durationMs,
    error: r.error,
    try_errors: r.tryErrors,
    request: r.request,
    response: r.response,
    variables: r.extracted,
  };
}

/** An execution with its trigger variables and step log. */
export function serializeExecutionDetail({ execution, steps }: ExecutionDetail) {
  return { ...serializeExecutionItem(execution), variables: execution.variables, steps: steps.map(serializeStepRun) };
}
