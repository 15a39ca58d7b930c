import { z } from 'zod';
import type { WebhookExecution, WebhookStepRun } from '../../entities';
import { EXECUTION_STATUSES } from '../../entities/webhook-execution.entity';
import { STEP_RUN_STATUSES } from '../../entities/webhook-step-run.entity';
import { defineContract, described as d, field, type ViewOf, viewOf } from '../shared/contract';

/**
 * One run of a flow, across its attempts, as every surface shows it: REST (interface 2.5,
 * inline in its flow; the execution list adds `flow_id`, one execution's answer also its
 * variables and step log), /openapi.json and the GraphQL `WebhookExecution` type.
 */
export const executionContract = defineContract({
  name: 'WebhookExecution',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    flowId: d(field.id(), 'Id of the flow run.'),
    status: d(z.enum(EXECUTION_STATUSES), 'Where the execution is.'),
    attemptNumber: d(z.int(), 'Attempt, from 1.'),
    variables: d(field.json(), 'The variables the flow was triggered with.'),
    executedAt: d(z.date().nullable(), 'When the current attempt started; null before the first.'),
    nextRetryAt: d(z.date().nullable(), 'When the next attempt starts; null when none is due.'),
    finishedAt: d(z.date().nullable(), 'When it finished; null until then.'),
    errorMessage: d(z.string().nullable(), 'Why the last attempt failed; null when none failed.'),
    createdAt: d(z.date(), 'When the record was created.'),
    updatedAt: d(z.date(), 'When the record last changed.'),
  }),
  // Interface 2.5 orders the timestamps its own way; its flow and variables are in the list's and detail's shapes.
  rest: { omit: ['flowId', 'variables'], after: { createdAt: 'executedAt', updatedAt: 'createdAt' } },
});

export type ExecutionView = ViewOf<typeof executionContract>;

const headers = () => z.record(z.string(), z.string());

/**
 * One step of one attempt of an execution, as logged: the request sent (secrets redacted)
 * and the answer. REST shows the variables the step's response produced; GraphQL does not,
 * and shows the request and response as JSON objects.
 */
export const stepRunContract = defineContract({
  name: 'WebhookStepRun',
  view: z.object({
    attemptNumber: d(z.int(), 'Attempt, from 1.'),
    stepNumber: d(z.int(), 'Position of the step in the flow.'),
    status: d(z.enum(STEP_RUN_STATUSES), 'Outcome of the step in this attempt.'),
    tries: d(z.int(), 'Requests sent: 1 plus the retries within the attempt.'),
    startedAt: d(z.date().nullable(), 'When the step started; null until then.'),
    finishedAt: d(z.date().nullable(), 'When it finished; null until then.'),
    durationMs: d(z.int().nullable(), 'Milliseconds the step took; null while running.'),
    error: d(z.string().nullable(), 'Why the step failed; null when it did not.'),
    tryErrors: d(z.array(z.string()), 'The errors of the tries before the last.'),
    request: d(z.strictObject({ method: z.string(), url: z.string(), headers: headers(), body: z.string().nullable() }).nullable(), 'Method, URL, headers (redacted), body excerpt.'),
    response: d(z.strictObject({ status: z.int(), headers: headers(), body: z.string().nullable(), truncated: z.boolean() }).nullable(), 'Status, headers and body excerpts.'),
    variables: d(field.json(), 'Flow variables the response produced.'),
    // /openapi.json documents the REST field with its own description (zod's global registry).
    unresolvedVariables: d(
      z.array(z.string()).describe('Placeholders of the request that no source gave a value: sent as empty text (docs/flows.md).'),
      'Placeholders of the request that no source gave a value: sent as empty text.',
    ),
  }),
  graphql: { omit: ['variables'], as: { request: 'jsonObject', response: 'jsonObject' } },
});

export type StepRunView = ViewOf<typeof stepRunContract>;

/** The view of a stored execution. */
export const toExecutionView = (execution: WebhookExecution): ExecutionView => viewOf(executionContract, execution);

/** The view of a logged step run. */
export const toStepRunView = (run: WebhookStepRun): StepRunView => viewOf(stepRunContract, run, { variables: (r) => r.extracted });
