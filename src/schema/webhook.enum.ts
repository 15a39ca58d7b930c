import { EXECUTION_STATUSES } from '../entities/webhook-execution.entity';
import { FLOW_DIRECTIONS, FLOW_STATUSES } from '../entities/webhook-flow.entity';
import { STEP_RUN_STATUSES } from '../entities/webhook-step-run.entity';
import { WEBHOOK_METHODS } from '../entities/webhook-step.entity';
import { RETRY_UNITS } from '../services/campaigns/campaign.input';
import { closedSet } from './closed-set';

// The flow aggregate's closed sets as GraphQL enums: its contracts' enum fields find them by their values (closedSetOf).

/** Execution status: scheduled -> in_progress -> success | failed. */
export const ExecutionStatus = closedSet('ExecutionStatus', EXECUTION_STATUSES, 'scheduled -> in_progress -> success | failed.', {
  scheduled: 'Waiting for its first attempt or for a retry.',
  in_progress: 'An attempt is running.',
  success: 'Every step succeeded.',
  failed: 'The last allowed attempt failed.',
});

/** Flow status, interface section 3: only `stopped` and `deleted` change behaviour. */
export const FlowStatus = closedSet('FlowStatus', FLOW_STATUSES, 'Status of a flow; the values the interface names.', {
  running: 'Enabled: triggers start executions (the default).',
  stopped: 'Triggers are refused.',
  deleted: 'Soft-deleted: hidden from lists.',
  scheduled: 'Stored as given; behaves as running.',
  'in-progress': 'Stored as given; behaves as running.',
  failed: 'Stored as given; behaves as running.',
});

export const FlowDirection = closedSet('FlowDirection', FLOW_DIRECTIONS, 'Direction of a flow, as the interface names it.', {
  inbound: 'An inbound flow.',
  outbound: 'An outbound flow (the default).',
});

export const WebhookMethod = closedSet(
  'WebhookMethod',
  WEBHOOK_METHODS,
  'HTTP method of a step request.',
  Object.fromEntries(WEBHOOK_METHODS.map((m) => [m, `HTTP ${m}.`])) as Record<(typeof WEBHOOK_METHODS)[number], string>,
);

/** Status of one step of one attempt. */
export const StepRunStatus = closedSet('StepRunStatus', STEP_RUN_STATUSES, 'Status of one step in one attempt.', {
  running: 'Its request is being sent (or retried).',
  success: 'Its success condition held.',
  failed: 'Every try failed.',
  skipped: 'Not run: the step it depends on did not succeed.',
});

/** Unit of a retry delay, for flows and campaign retry tiers. */
export const RetryDelayUnit = closedSet('RetryDelayUnit', RETRY_UNITS, 'Unit of a retry delay.', {
  seconds: 'Seconds.',
  minutes: 'Minutes.',
  hours: 'Hours.',
  days: 'Days.',
});
