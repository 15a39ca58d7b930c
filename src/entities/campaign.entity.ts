import { Entity, Index, ManyToOne, type Opt, Property, type Ref } from '@mikro-orm/core';
import { AiAgent } from './ai-agent.entity';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';
import { PhoneNumber } from './phone-number.entity';
import { WebhookFlow } from './webhook-flow.entity';

/** The `campaign_type` of campaigns that answer calls to their inbound number rather than dial. */
export const INBOUND_CAMPAIGN_TYPE = 'inbound';

/** One side of an A/B split: a version of the campaign's agent and its share of the calls. */
export interface VersionWeight {
  version: number;
  weight: number;
}

/** A calling job over a contact selection, inside a calling window, with retry tiers. */
@Entity({ tableName: 'campaigns' })
@Index({ properties: ['company', 'workspace'] })
export class Campaign extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @Property({ type: 'string', length: 100 })
  workspace: Opt<string> = 'default';

  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'text' })
  notes: Opt<string> = '';

  @Property({ type: 'string', length: 50 })
  status: Opt<string> = 'draft';

  @Property({ type: 'string', length: 50 })
  /** `inbound`: answers calls to `inboundPhoneNumber` instead of dialling (docs/calls.md); anything else dials. */
  campaignType: Opt<string> = 'outbound';

  @Property({ type: 'integer' })
  callProgress: Opt<number> = 0;

  @Property({ type: 'json' })
  daysOfWeek: Opt<number[]> = [1, 2, 3, 4, 5];

  @Property({ type: 'string', length: 64 })
  timeZone: Opt<string> = 'UTC';

  @Property({ type: 'json' })
  contactsListSource: Opt<string[]> = [];

  @Property({ type: 'json' })
  contactsListTags: Opt<string[]> = [];

  @Property({ type: 'json' })
  contactsListCategories: Opt<string[]> = [];

  @Property({ type: 'json' })
  contactsListSourceMetadata: Opt<Record<string, unknown>> = {};

  @Property({ type: 'json' })
  agentVariablesContactMetadataMapping: Opt<Record<string, unknown>> = {};

  @Property({ type: 'string', columnType: 'time(0)' })
  callTimeOfDayFrom: Opt<string> = '09:00:00';

  @Property({ type: 'string', columnType: 'time(0)' })
  callTimeOfDayTo: Opt<string> = '17:00:00';

  @Property({ type: 'json' })
  numberOfCallAttempts: Opt<number[]> = [];

  @Property({ type: 'json' })
  retryDelay: Opt<number[]> = [];

  @Property({ type: 'json' })
  retryDelayUnit: Opt<string[]> = [];

  /** First and last calling dates (YYYY-MM-DD, inclusive) in the campaign's time zone. */
  @Property({ type: 'string', columnType: 'date', nullable: true })
  startedAt: Opt<string> | null = null;

  @Property({ type: 'string', columnType: 'date', nullable: true })
  endedAt: Opt<string> | null = null;

  @Property({ type: 'json' })
  webhookMappingVariables: Opt<Record<string, unknown>> = {};

  @Property({ type: 'json' })
  webhookMappingVariablesSources: Opt<Record<string, unknown>> = {};

  @Property({ type: 'string', length: 200, nullable: true })
  ownerUserId: Opt<string> | null = null;

  @ManyToOne({ entity: () => AiAgent, ref: true, nullable: true, deleteRule: 'set null' })
  aiAgent: Ref<AiAgent> | null = null;

  /** The agent's version every call runs (docs/agents.md, "Versions"); null: the latest published. */
  @Property({ type: 'integer', nullable: true })
  aiAgentVersion: Opt<number> | null = null;

  /** Versions the calls are split between by weight, instead of `aiAgentVersion`; null: none. */
  @Property({ type: 'json', nullable: true })
  aiAgentVersions: Opt<VersionWeight[]> | null = null;

  @ManyToOne({ entity: () => PhoneNumber, ref: true, nullable: true, deleteRule: 'set null' })
  inboundPhoneNumber: Ref<PhoneNumber> | null = null;

  @ManyToOne({ entity: () => PhoneNumber, ref: true, nullable: true, deleteRule: 'set null' })
  outboundPhoneNumber: Ref<PhoneNumber> | null = null;

  @ManyToOne({ entity: () => WebhookFlow, ref: true, nullable: true, deleteRule: 'set null' })
  webhook: Ref<WebhookFlow> | null = null;

  @Property({ type: 'boolean' })
  allowNonLocalCalls: Opt<boolean> = false;

  /** Extension: most calls of this campaign live at once. */
  @Property({ type: 'integer' })
  maxConcurrentCalls: Opt<number> = 5;

  /**
   * When the last complete pass of the dialer's selection began: every contact changed before
   * it has been considered. Null: a full selection is due (activation, an edit).
   */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  selectedAt: Opt<Date> | null = null;

  /** When the selection pass under way began; null: none under way (docs/campaigns.md, "Which contacts"). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  selectionStartedAt: Opt<Date> | null = null;

  /** The pass's keyset cursor: the last contact (`created_at`, `id`) it read. Written by SQL only (microseconds). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  selectionAfterCreatedAt: Opt<Date> | null = null;

  @Property({ type: 'uuid', nullable: true })
  selectionAfterId: Opt<string> | null = null;

  /** Contacts the pass under way has read: each slice after the first reads as many as all before it. Written by SQL only. */
  @Property({ type: 'integer', nullable: true })
  selectionRead: Opt<number> | null = null;

  /**
   * The pass under way began with no contact selected: its slices add their contacts without
   * looking for them among the entries (docs/campaigns.md, "Which contacts"). Written by SQL only.
   */
  @Property({ type: 'boolean', nullable: true })
  selectionFresh: Opt<boolean> | null = null;

  /**
   * How many contacts the campaign has selected (its entries), and how many of those are
   * settled: kept by the statements that add, settle and delete entries, so that
   * `call_progress` is read, not counted, in each tick (docs/campaigns.md, "Progress"). Null:
   * not counted yet (a campaign from before them), which the dialer's next tick does. Written
   * by SQL only.
   */
  @Property({ type: 'integer', nullable: true })
  entriesSelected: Opt<number> | null = null;

  @Property({ type: 'integer', nullable: true })
  entriesSettled: Opt<number> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deletedAt: Opt<Date> | null = null;
}
