import { Entity, ManyToOne, type Opt, Property, type Ref, Unique } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { WebhookFlow } from './webhook-flow.entity';

export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/** One HTTP request of a flow, run in `stepNumber` order after `dependsOnStep` succeeded. */
@Entity({ tableName: 'webhook_steps' })
@Unique({ properties: ['flow', 'stepNumber'] })
export class WebhookStep extends BaseEntity {
  @ManyToOne({ entity: () => WebhookFlow, ref: true, deleteRule: 'cascade' })
  flow!: Ref<WebhookFlow>;

  @Property({ type: 'integer' })
  stepNumber!: number;

  @Property({ type: 'text' })
  webhookUrl!: string;

  @Property({ type: 'string', length: 10 })
  webhookMethod: Opt<WebhookMethod> = 'POST';

  @Property({ type: 'integer' })
  webhookTimeout: Opt<number> = 10;

  @Property({ type: 'integer' })
  retryLimit: Opt<number> = 0;

  @Property({ type: 'integer' })
  timeout: Opt<number> = 30;

  @Property({ type: 'json' })
  webhookUrlParams: Opt<Record<string, string>> = {};

  @Property({ type: 'json' })
  webhookHeaders: Opt<Record<string, string>> = {};

  @Property({ type: 'json', nullable: true })
  webhookBody: Opt | null = null;

  @Property({ type: 'integer', nullable: true })
  dependsOnStep: Opt<number> | null = null;

  @Property({ type: 'json', nullable: true })
  successCondition: Opt | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deletedAt: Opt<Date> | null = null;
}
