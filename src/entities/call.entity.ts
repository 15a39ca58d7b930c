import { Entity, Index, ManyToOne, type Opt, Property, type Ref, Unique } from '@mikro-orm/core';
import { AiAgent, type TransferMode } from './ai-agent.entity';
import { BaseEntity } from './base.entity';
import { Campaign } from './campaign.entity';
import { Company } from './company.entity';
import { Contact } from './contact.entity';

export interface DynamicVariable {
  name: string;
  value: string;
}

export const CALL_STATUSES = ['pstn-queued', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
/** `outgoing` for calls the service places (interface 4.1), `incoming` for inbound ones. */
export const CALL_DIRECTIONS = ['outgoing', 'incoming'] as const;
export type CallDirection = (typeof CALL_DIRECTIONS)[number];
/** Who answered an outgoing call, as answering-machine detection tells (docs/calls.md, "Answering machines"). */
export const ANSWERED_BY = ['human', 'machine', 'fax', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];
/** Where a transfer to a person is: `dialing`, then Twilio's `DialCallStatus` (`answered` counts as `completed`). */
export const TRANSFER_STATUSES = ['dialing', 'completed', 'no-answer', 'busy', 'failed', 'canceled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
/** A call's latest transfer to a person, as stored (docs/calls.md, "Transfers"). */
export interface CallTransfer {
  /** E.164. */
  to: string;
  mode: TransferMode;
  status: TransferStatus;
  /** ISO 8601. */
  started_at: string;
}
export const LIVE_STATUSES: readonly CallStatus[] = ['pstn-queued', 'ringing', 'in-progress'];
export const TERMINAL_STATUSES: readonly CallStatus[] = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];

/** One phone call placed (or received) by an AI agent. Status vocabulary: docs/rest.md. */
@Entity({ tableName: 'calls' })
@Index({ properties: ['company', 'createdAt', 'id'] })
@Index({ properties: ['company', 'workspaceId', 'createdAt'] })
@Index({ properties: ['campaign', 'createdAt'] })
@Index({ properties: ['company', 'callStatus', 'dispatchedAt'] })
// One status's newest calls: the lists filtered by status (docs/performance.md, "Volume").
@Index({ properties: ['company', 'callStatus', 'createdAt', 'id'] })
// One contact's newest calls: the lists filtered by contact and Contact.calls.
@Index({ properties: ['company', 'contact', 'createdAt', 'id'] })
@Index({ properties: ['callStatus', 'updatedAt'] })
@Index({ properties: ['callSid'] })
// Dispatch's pick: only the calls waiting for a slot, oldest first (a partial index stays small however many calls a company made).
@Index({
  name: 'calls_waiting_index',
  expression: `create index "calls_waiting_index" on "calls" ("company_id", "created_at", "id") where "call_status" = 'pstn-queued' and "dispatched_at" is null`,
})
// The retention sweep's pick: only calls holding a recording (docs/calls.md, "Recording").
@Index({
  name: 'calls_recording_at_index',
  expression: `create index "calls_recording_at_index" on "calls" ("recording_at") where "recording_sid" is not null`,
})
// The analytics query's read of a range of live calls: every column its sums and groups read, so the range is an index-only scan (docs/performance.md, "Volume").
@Index({
  name: 'calls_analytics_index',
  expression: `create index "calls_analytics_index" on "calls" ("company_id", "created_at") include ("call_status", "started_at", "call_duration", "cost", "campaign_id", "ai_agent_id") where "deleted_at" is null`,
})
@Unique({ properties: ['campaign', 'contact', 'campaignAttempt'] })
export class Call extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @ManyToOne({ entity: () => AiAgent, ref: true })
  aiAgent!: Ref<AiAgent>;

  /** The published version of the agent the call runs (docs/agents.md, "Versions"); null: the draft. */
  @Property({ type: 'integer', nullable: true })
  aiAgentVersion: Opt<number> | null = null;

  @ManyToOne({ entity: () => Campaign, ref: true, nullable: true, deleteRule: 'set null' })
  campaign: Ref<Campaign> | null = null;

  @ManyToOne({ entity: () => Contact, ref: true, nullable: true, deleteRule: 'set null' })
  contact: Ref<Contact> | null = null;

  /**
   * Which attempt of its campaign at its contact this call is (1, 2, ...); null for calls
   * outside campaigns. Unique with the two: no contact is called twice for one attempt.
   */
  @Property({ type: 'integer', nullable: true })
  campaignAttempt: Opt<number> | null = null;

  @Property({ type: 'string', length: 100 })
  workspaceId: Opt<string> = 'default';

  /** Provider's identifier; empty until the provider has accepted the call. */
  @Property({ type: 'string', length: 100 })
  callSid: Opt<string> = '';

  @Property({ type: 'string', length: 50 })
  callProvider!: string;

  @Property({ type: 'string', length: 20 })
  callFrom!: string;

  @Property({ type: 'string', length: 20 })
  callTo!: string;

  @Property({ type: 'integer' })
  callDuration: Opt<number> = 0;

  @Property({ type: 'string', length: 30 })
  callStatus: Opt<CallStatus> = 'pstn-queued';

  @Property({ type: 'string', length: 20 })
  callDirection: Opt<CallDirection> = 'outgoing';

  @Property({ type: 'boolean' })
  isTest: Opt<boolean> = false;

  @Property({ type: 'integer' })
  callRating: Opt<number> = 0;

  @Property({ type: 'text', nullable: true })
  callFeedback: Opt<string> | null = null;

  @Property({ type: 'text', nullable: true })
  recordUrl: Opt<string> | null = null;

  /** Who answered; null when nobody did or nothing detected it (incoming calls). */
  @Property({ type: 'string', length: 10, nullable: true })
  answeredBy: Opt<AnsweredBy> | null = null;

  /** Twilio's `AnsweredBy` as it came (`machine_start`, `machine_end_beep`...): what the relay session acts on. */
  @Property({ type: 'string', length: 30, nullable: true, hidden: true })
  machineDetection: Opt<string> | null = null;

  /** The provider's recording of the call; `recordUrl` is our URL serving it (docs/calls.md, "Recording"). */
  @Property({ type: 'string', length: 100, nullable: true, hidden: true })
  recordingSid: Opt<string> | null = null;

  /** When the recording was stored; retention counts from it. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true, hidden: true })
  recordingAt: Opt<Date> | null = null;

  @Property({ type: 'text', nullable: true })
  transcript: Opt<string> | null = null;

  /** `{turns: [{role, text, at, latency_ms?, latency?}]}` (conversation/transcript.ts), written turn by turn. */
  @Property({ type: 'json', nullable: true })
  transcriptObject: Opt<Record<string, unknown>> | null = null;

  @Property({ type: 'string', length: 35, nullable: true })
  transcriptLanguage: Opt<string> | null = null;

  /** The total of the parts below (docs/calls.md, "Cost"). */
  @Property({ type: 'decimal', precision: 12, scale: 4, runtimeType: 'number' })
  cost: Opt<number> = 0;

  @Property({ type: 'decimal', precision: 12, scale: 4, runtimeType: 'number' })
  costTelephony: Opt<number> = 0;

  @Property({ type: 'decimal', precision: 12, scale: 4, runtimeType: 'number' })
  costLlm: Opt<number> = 0;

  @Property({ type: 'decimal', precision: 12, scale: 4, runtimeType: 'number' })
  costRecording: Opt<number> = 0;

  /** Tokens the conversation's model read (prompts) and wrote (answers), as its streams' usage reported them. */
  @Property({ type: 'integer', hidden: true })
  llmInputTokens: Opt<number> = 0;

  @Property({ type: 'integer', hidden: true })
  llmOutputTokens: Opt<number> = 0;

  @Property({ type: 'string', length: 3 })
  priceUnit!: string;

  @Property({ type: 'integer' })
  latency: Opt<number> = 0;

  @Property({ type: 'string', length: 100 })
  disconnectReason: Opt<string> = '';

  /** Relay sessions resumed after a drop (docs/calls.md, "A call that survives its replica"). */
  @Property({ type: 'integer' })
  resumes: Opt<number> = 0;

  /** The latest transfer to a person; null when the agent transferred none. */
  @Property({ type: 'json', nullable: true })
  transfer: Opt<CallTransfer> | null = null;

  /** What a warm transfer's person is told before being connected (the whisper). */
  @Property({ type: 'text', nullable: true, hidden: true })
  transferSummary: Opt<string> | null = null;

  @Property({ type: 'string', length: 50 })
  analysisSentiment: Opt<string> = '';

  @Property({ type: 'string', length: 50 })
  agentTaskStatus: Opt<string> = '';

  @Property({ type: 'text' })
  agentTaskFeedback: Opt<string> = '';

  @Property({ type: 'json', nullable: true })
  metadata: Opt<Record<string, unknown>> | null = null;

  @Property({ type: 'json' })
  agentDynamicVariables: Opt<DynamicVariable[]> = [];

  @Property({ type: 'json', nullable: true })
  agentPostCallOutcomes: Opt<Record<string, unknown>> | null = null;

  @Property({ type: 'text', nullable: true })
  notes: Opt<string> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deletedAt: Opt<Date> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  startedAt: Opt<Date> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  endedAt: Opt<Date> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  retryAt: Opt<Date> | null = null;

  /** When the call took one of its company's concurrent-call slots (null while waiting). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  dispatchedAt: Opt<Date> | null = null;
}
