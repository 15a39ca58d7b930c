import { Entity, ManyToOne, type Opt, Property, type Ref, Unique } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { WebhookExecution } from './webhook-execution.entity';

export const STEP_RUN_STATUSES = ['running', 'success', 'failed', 'skipped'] as const;
export type StepRunStatus = (typeof STEP_RUN_STATUSES)[number];

/** The request as sent, secrets redacted, body cut to an excerpt. */
export interface LoggedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

/** The response as received, headers and body cut to excerpts. */
export interface LoggedResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  /** The body was longer than what was read or kept. */
  truncated: boolean;
}

/**
 * One step of one attempt of an execution: written `running` when the step starts, then
 * finished once. The unique key makes the step claimable once per attempt; `extracted`
 * keeps the flow variables this step's response produced, for the steps after it.
 */
@Entity({ tableName: 'webhook_step_runs' })
@Unique({ properties: ['execution', 'attemptNumber', 'stepNumber'] })
export class WebhookStepRun extends BaseEntity {
  @ManyToOne({ entity: () => WebhookExecution, ref: true, deleteRule: 'cascade' })
  execution!: Ref<WebhookExecution>;

  @Property({ type: 'integer' })
  attemptNumber!: number;

  @Property({ type: 'integer' })
  stepNumber!: number;

  @Property({ type: 'string', length: 20 })
  status: Opt<StepRunStatus> = 'running';

  /** Requests sent: 1 plus the retries within the attempt. */
  @Property({ type: 'integer' })
  tries: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  startedAt: Opt<Date> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  finishedAt: Opt<Date> | null = null;

  @Property({ type: 'integer', nullable: true })
  durationMs: Opt<number> | null = null;

  @Property({ type: 'text', nullable: true })
  error: Opt<string> | null = null;

  /** Why each earlier try of this attempt failed, oldest first. */
  @Property({ type: 'json' })
  tryErrors: Opt<string[]> = [];

  /** The last request sent. */
  @Property({ type: 'json', nullable: true })
  request: Opt<LoggedRequest> | null = null;

  /** The last response received. */
  @Property({ type: 'json', nullable: true })
  response: Opt<LoggedResponse> | null = null;

  @Property({ type: 'json' })
  extracted: Opt<Record<string, unknown>> = {};

  /** Placeholders of the step's request that no source gave a value (sent as ''), sorted. */
  @Property({ type: 'json' })
  unresolvedVariables: Opt<string[]> = [];

  /** False when the step failed in a way no later attempt can cure (a blocked address...). */
  @Property({ type: 'boolean' })
  retryable: Opt<boolean> = true;

  /**
   * Optimistic lock: bumped when a worker takes over a step whose first worker is presumed
   * dead, so that the first worker, should it still be alive, cannot record the step too.
   */
  @Property({ type: 'integer', version: true })
  version!: Opt<number>;
}
