import { z } from 'zod';
import type { WebhookExecution, WebhookStepRun } from '../entities';
import type { ExecutionDetail } from '../services/webhook-execution.service';
import { iso, shape } from './serialize';
import { executionShape, serializeExecution } from './webhook.serializer';

/** An execution as listed: the documented fields (interface 2.5) and its flow. */
export const executionItemShape = executionShape.extend({ flow_id: shape.id() }).meta({ id: 'WebhookExecutionItem' });

const headers = () => z.record(z.string(), z.string());

/** One step of one attempt, as logged: the request sent (secrets redacted) and the answer. */
export const stepRunShape = z
  .strictObject({
    attempt_number: z.int(),
    step_number: z.int(),
    status: z.enum(['running', 'success', 'failed', 'skipped']),
    tries: z.int(),
    started_at: shape.timestamp().nullable(),
    finished_at: shape.timestamp().nullable(),
    duration_ms: z.int().nullable(),
    error: z.string().nullable(),
    try_errors: z.array(z.string()),
    request: z.strictObject({ method: z.string(), url: z.string(), headers: headers(), body: z.string().nullable() }).nullable(),
    response: z.strictObject({ status: z.int(), headers: headers(), body: z.string().nullable(), truncated: z.boolean() }).nullable(),
    variables: shape.json(),
    unresolved_variables: z.array(z.string()).describe('Placeholders of the request that no source gave a value: sent as empty text (docs/flows.md).'),
  })
  .meta({ id: 'WebhookStepRun' });

/** An execution with its trigger variables and step log. */
export const executionDetailShape = executionItemShape
  .extend({ variables: shape.json(), steps: z.array(stepRunShape) })
  .meta({ id: 'WebhookExecutionDetail' });

export function serializeExecutionItem(e: WebhookExecution): z.output<typeof executionItemShape> {
  return { ...serializeExecution(e), flow_id: e.flow.id };
}

export function serializeStepRun(r: WebhookStepRun): z.output<typeof stepRunShape> {
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
    unresolved_variables: r.unresolvedVariables,
  };
}

export function serializeExecutionDetail({ execution, steps }: ExecutionDetail): z.output<typeof executionDetailShape> {
  return { ...serializeExecutionItem(execution), variables: execution.variables, steps: steps.map(serializeStepRun) };
}
