import { Entity, Index, ManyToOne, type Opt, Property, type Ref } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';
import { WebhookFlow } from './webhook-flow.entity';

export type ExecutionStatus = 'scheduled' | 'in_progress' | 'success' | 'failed';

/** One run of a flow, across its attempts. */
@Entity({ tableName: 'webhook_executions' })
@Index({ properties: ['flow', 'createdAt', 'id'] })
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

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  executedAt: Opt<Date> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  nextRetryAt: Opt<Date> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  finishedAt: Opt<Date> | null = null;

  @Property({ type: 'text', nullable: true })
  errorMessage: Opt<string> | null = null;
}
