import { Entity, Index, ManyToOne, type Opt, Property, type Ref } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';

export const VOICEMAIL_ACTIONS = ['hangup', 'leave_message', 'continue'] as const;
export type VoicemailAction = (typeof VOICEMAIL_ACTIONS)[number];
/** `mono`: both parties on one channel; `dual`: one channel each. */
export const CALL_RECORDINGS = ['off', 'mono', 'dual'] as const;
export type CallRecording = (typeof CALL_RECORDINGS)[number];
/** `cold`: the caller is put through to the number; `warm`: the person is told a summary first, and the agent comes back when nobody takes the call. */
export const TRANSFER_MODES = ['cold', 'warm'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];

/**
 * A conversational agent. Templates (`isTemplate`, no company) are a built-in catalogue
 * readable by every company. Numeric settings are 0-100 integers or seconds (docs/rest.md).
 */
@Entity({ tableName: 'ai_agents' })
@Index({ properties: ['company', 'workspaceId'] })
export class AiAgent extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, nullable: true, deleteRule: 'cascade' })
  company!: Ref<Company> | null;

  @Property({ type: 'boolean' })
  isTemplate: Opt<boolean> = false;

  @Property({ type: 'string', length: 100 })
  workspaceId: Opt<string> = 'default';

  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'text' })
  description: Opt<string> = '';

  @Property({ type: 'string', length: 35 })
  language: Opt<string> = 'en-US';

  @Property({ type: 'string', length: 50 })
  status: Opt<string> = 'active';

  @Property({ type: 'text' })
  prompt: Opt<string> = '';

  @Property({ type: 'string', length: 200 })
  startingState: Opt<string> = '';

  @Property({ type: 'string', length: 50 })
  whoTalksFirst: Opt<string> = 'agent';

  @Property({ type: 'integer' })
  reminderFrequencyFrom: Opt<number> = 0;

  @Property({ type: 'integer' })
  reminderFrequencyTo: Opt<number> = 0;

  @Property({ type: 'integer' })
  maxSilenceDuration: Opt<number> = 30;

  @Property({ type: 'integer' })
  responsiveness: Opt<number> = 50;

  @Property({ type: 'integer' })
  voiceSpeed: Opt<number> = 50;

  @Property({ type: 'integer' })
  voiceTemperature: Opt<number> = 50;

  @Property({ type: 'integer' })
  interruptionSensitivity: Opt<number> = 50;

  @Property({ type: 'integer' })
  llmTemperature: Opt<number> = 30;

  @Property({ type: 'string', length: 50 })
  agentType: Opt<string> = 'outbound';

  @Property({ type: 'string', length: 50 })
  backgroundAudioStatus: Opt<string> = 'off';

  /** What the agent does when a machine answers (docs/agents.md, "Answering machines"). */
  @Property({ type: 'string', length: 20 })
  voicemailAction: Opt<VoicemailAction> = 'hangup';

  /** Left on an answering machine under `leave_message`; `{{variables}}` filled like the prompt. */
  @Property({ type: 'text' })
  voicemailMessage: Opt<string> = '';

  @Property({ type: 'string', length: 10 })
  callRecording: Opt<CallRecording> = 'off';

  /** Spoken before anything else on every call, not interruptible; empty: none. */
  @Property({ type: 'text' })
  openingDisclosure: Opt<string> = '';

  /** Said as the agent's first turn instead of a generated greeting (Twilio's `welcomeGreeting`); null: none. */
  @Property({ type: 'text', nullable: true })
  welcomeGreeting: Opt<string> | null = null;

  /** How `transfer_call` puts the caller through (docs/calls.md, "Transfers"). */
  @Property({ type: 'string', length: 10 })
  transferMode: Opt<TransferMode> = 'cold';

  /** An https URL of audio played to the caller while a warm transfer is prepared; null: none. */
  @Property({ type: 'text', nullable: true })
  holdAudioUrl: Opt<string> | null = null;

  @Property({ type: 'json' })
  agentFlow: Opt<Record<string, unknown>> = {};

  @Property({ type: 'json' })
  agentDynamicVariables: Opt<Record<string, unknown>> = {};

  @Property({ type: 'json' })
  agentPostCallOutcomes: Opt<Record<string, unknown>> = {};

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deletedAt: Opt<Date> | null = null;
}
