import { Cascade, Collection, Entity, Index, ManyToOne, OneToMany, type Opt, Property, type Ref } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';
import { WebhookStep } from './webhook-step.entity';

/** Flow statuses the interface names (section 3); only `stopped` and `deleted` change behaviour. */
export const FLOW_STATUSES = ['running', 'stopped', 'deleted', 'scheduled', 'in-progress', 'failed'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];
export const FLOW_DIRECTIONS = ['inbound', 'outbound'] as const;
export type FlowDirection = (typeof FLOW_DIRECTIONS)[number];

export interface PredefinedVariable {
  name: string;
  value: string;
  /** Write-only: read back masked (docs/flows.md, "Secret variables"). Left out on variables stored before it existed. */
  secret?: boolean;
}

/** Names that hold credentials: such a variable is secret whatever its `secret` flag says. */
export const CREDENTIAL_NAME = /token|secret|passw|pwd|api[-_]?key|apikey|auth|credential|private[-_]?key|signature|cookie|session/i;

/** Whether a predefined variable is write-only: flagged `secret`, or named like a credential. */
export const isSecretVariable = (v: { name: string; secret?: boolean | undefined }): boolean => v.secret === true || CREDENTIAL_NAME.test(v.name);

/** What a secret variable's value reads as; sent back in an update, it keeps the stored value. */
export const SECRET_MASK = '********';

/** A value a step extracts from an earlier step's response (interface 2.5, "Variable"). */
export interface FlowVariable {
  name: string;
  location: string;
  stepId: number;
  type: string;
  dataType: string;
  customValue: string;
}

export const FLOW_EVENTS = ['call.started', 'call.ended', 'call.analyzed', 'campaign.completed'] as const;
export type FlowEventName = (typeof FLOW_EVENTS)[number];

/** Narrows the events a flow subscribes to; a filter left out matches every record. */
export interface EventFilters {
  workspace?: string;
  ai_agent_id?: string;
  campaign_id?: string;
}

/**
 * An outbound webhook flow: ordered HTTP steps run when triggered. Integration templates
 * are flows with `isTemplate` and no company, copied (never edited) to be used.
 */
@Entity({ tableName: 'webhook_flows' })
@Index({ properties: ['company', 'workspaceId'] })
export class WebhookFlow extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, nullable: true, deleteRule: 'cascade' })
  company!: Ref<Company> | null;

  @Property({ type: 'string', length: 200, nullable: true })
  createdBy: Opt<string> | null = null;

  @Property({ type: 'string', length: 100 })
  workspaceId: Opt<string> = 'default';

  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'text' })
  logo: Opt<string> = '';

  @Property({ type: 'integer' })
  retryDelay: Opt<number> = 60;

  @Property({ type: 'string', length: 10 })
  retryDelayUnit: Opt<string> = 'seconds';

  @Property({ type: 'integer' })
  maxRetries: Opt<number> = 3;

  @Property({ type: 'string', length: 50 })
  status: Opt<FlowStatus> = 'running';

  @Property({ type: 'boolean' })
  isTemplate: Opt<boolean> = false;

  @Property({ type: 'string', length: 20 })
  flowDirection: Opt<FlowDirection> = 'outbound';

  @Property({ type: 'json' })
  flowMapping: Opt<Record<string, unknown>> = {};

  @Property({ type: 'string', length: 200 })
  tagName: Opt<string> = '';

  @Property({ type: 'string', length: 200 })
  categoryName: Opt<string> = '';

  @Property({ type: 'json' })
  predefinedVariables: Opt<PredefinedVariable[]> = [];

  @Property({ type: 'json' })
  variables: Opt<FlowVariable[]> = [];

  /** Events that trigger the flow (docs/flows.md, "Event subscriptions"): `call.ended`, say. */
  @Property({ type: 'json' })
  events: Opt<FlowEventName[]> = [];

  /** Which records' events trigger it: all of the company's when empty. */
  @Property({ type: 'json' })
  eventFilters: Opt<EventFilters> = {};

  /** Standard Webhooks signing secret (`whsec_...`), encrypted (SecretBox). Never serialised. */
  @Property({ type: 'text', hidden: true, lazy: true })
  secret!: string;

  @OneToMany({ entity: () => WebhookStep, mappedBy: 'flow', cascade: [Cascade.ALL], orphanRemoval: true, orderBy: { stepNumber: 'asc' } })
  steps = new Collection<WebhookStep>(this);

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deletedAt: Opt<Date> | null = null;
}
