import { Entity, Index, ManyToOne, type Opt, Property, type Ref } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';
import type { FlowVariable, PredefinedVariable } from './webhook-flow.entity';
import { WebhookFlow } from './webhook-flow.entity';
import type { WebhookMethod } from './webhook-step.entity';

export const EXECUTION_STATUSES = ['scheduled', 'in_progress', 'success', 'failed'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** A step as it was when the execution was triggered. */
export interface StepDefinition {
  stepNumber: number;
  url: string;
  method: WebhookMethod;
  webhookTimeout: number;
  retryLimit: number;
  timeout: number;
  urlParams: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  dependsOnStep: number | null;
  successCondition: unknown;
}

/** The flow as it was when the execution was triggered: later edits do not change a run. */
export interface FlowDefinition {
  steps: StepDefinition[];
  variables: FlowVariable[];
  predefinedVariables: PredefinedVariable[];
  maxRetries: number;
  retryDelay: number;
  retryDelayUnit: string;
}

/** One run of a flow, across its attempts. */
@Entity({ tableName: 'webhook_executions' })
@Index({ properties: ['flow', 'createdAt', 'id'] })
@Index({
  name: 'webhook_executions_local_index',
  expression: `create index "webhook_executions_local_index" on "webhook_executions" ("local_until") where "local_until" is not null`,
})
export class WebhookExecution extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @ManyToOne({ entity: () => WebhookFlow, ref: true, deleteRule: 'cascade' })
  flow!: Ref<WebhookFlow>;

  @Property({ type: 'string', length: 20 })
  status: Opt<ExecutionStatus> = 'scheduled';

  @Property({ type: 'integer' })
  attemptNumber: Opt<number> = 1;

  /** Trigger payload: the variables the flow was started with. */
  @Property({ type: 'json' })
  variables: Opt<Record<string, unknown>> = {};

  /** A flow tool's arguments, from a language model: they fill only step bodies (docs/flows.md, "Flows as tools"). */
  @Property({ type: 'json', nullable: true, lazy: true, hidden: true })
  arguments: Opt<Record<string, unknown>> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  executedAt: Opt<Date> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  nextRetryAt: Opt<Date> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  finishedAt: Opt<Date> | null = null;

  @Property({ type: 'text', nullable: true })
  errorMessage: Opt<string> | null = null;

  /**
   * Snapshot of the flow taken at the trigger; the steps of every attempt follow it. Null
   * only on executions recorded before the engine existed.
   */
  @Property({ type: 'json', nullable: true, lazy: true, hidden: true })
  definition: Opt<FlowDefinition> | null = null;

  /**
   * The step a process is sending itself, without a job (docs/flows.md, "Running it"),
   * and by when it must have stored it; past that, the flow step sweep queues it as a job.
   */
  @Property({ type: 'integer', nullable: true, hidden: true })
  localStep: Opt<number> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true, hidden: true })
  localUntil: Opt<Date> | null = null;
}
