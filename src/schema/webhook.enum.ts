import { registerEnumType } from 'type-graphql';

/** Execution status: scheduled -> in_progress -> success | failed. */
export enum ExecutionStatus {
  SCHEDULED = 'scheduled',
  IN_PROGRESS = 'in_progress',
  SUCCESS = 'success',
  FAILED = 'failed',
}

registerEnumType(ExecutionStatus, {
  name: 'ExecutionStatus',
  description: 'scheduled -> in_progress -> success | failed.',
  valuesConfig: {
    SCHEDULED: { description: 'Waiting for its first attempt or for a retry.' },
    IN_PROGRESS: { description: 'An attempt is running.' },
    SUCCESS: { description: 'Every step succeeded.' },
    FAILED: { description: 'The last allowed attempt failed.' },
  },
});

/** Flow status, interface section 3: only `stopped` and `deleted` change behaviour. */
export enum FlowStatus {
  RUNNING = 'running',
  STOPPED = 'stopped',
  DELETED = 'deleted',
  SCHEDULED = 'scheduled',
  IN_PROGRESS = 'in-progress',
  FAILED = 'failed',
}

registerEnumType(FlowStatus, {
  name: 'FlowStatus',
  description: 'Status of a flow; the values the interface names.',
  valuesConfig: {
    RUNNING: { description: 'Enabled: triggers start executions (the default).' },
    STOPPED: { description: 'Triggers are refused.' },
    DELETED: { description: 'Soft-deleted: hidden from lists.' },
    SCHEDULED: { description: 'Stored as given; behaves as running.' },
    IN_PROGRESS: { description: 'Stored as given; behaves as running.' },
    FAILED: { description: 'Stored as given; behaves as running.' },
  },
});

export enum FlowDirection {
  INBOUND = 'inbound',
  OUTBOUND = 'outbound',
}

registerEnumType(FlowDirection, {
  name: 'FlowDirection',
  description: 'Direction of a flow, as the interface names it.',
  valuesConfig: { INBOUND: { description: 'An inbound flow.' }, OUTBOUND: { description: 'An outbound flow (the default).' } },
});

export enum WebhookMethod {
  GET = 'GET',
  POST = 'POST',
  PUT = 'PUT',
  DELETE = 'DELETE',
  PATCH = 'PATCH',
  OPTIONS = 'OPTIONS',
  HEAD = 'HEAD',
}

registerEnumType(WebhookMethod, {
  name: 'WebhookMethod',
  description: 'HTTP method of a step request.',
  valuesConfig: Object.fromEntries(Object.keys(WebhookMethod).map((m) => [m, { description: `HTTP ${m}.` }])),
});

/** Status of one step of one attempt. */
export enum StepRunStatus {
  RUNNING = 'running',
  SUCCESS = 'success',
  FAILED = 'failed',
  SKIPPED = 'skipped',
}

registerEnumType(StepRunStatus, {
  name: 'StepRunStatus',
  description: 'Status of one step in one attempt.',
  valuesConfig: {
    RUNNING: { description: 'Its request is being sent (or retried).' },
    SUCCESS: { description: 'Its success condition held.' },
    FAILED: { description: 'Every try failed.' },
    SKIPPED: { description: 'Not run: the step it depends on did not succeed.' },
  },
});

/** Unit of a retry delay, for flows and campaign retry tiers. */
export enum RetryDelayUnit {
  SECONDS = 'seconds',
  MINUTES = 'minutes',
  HOURS = 'hours',
  DAYS = 'days',
}

registerEnumType(RetryDelayUnit, {
  name: 'RetryDelayUnit',
  description: 'Unit of a retry delay.',
  valuesConfig: {
    SECONDS: { description: 'Seconds.' },
    MINUTES: { description: 'Minutes.' },
    HOURS: { description: 'Hours.' },
    DAYS: { description: 'Days.' },
  },
});
