import type { CallRecording } from '../../entities/ai-agent.entity';
import type { AnsweredBy, CallStatus } from '../../entities/call.entity';
import type { StoredTurn } from '../conversation/transcript';
import type { RelayAgentSettings } from './conversation-relay';

/** A status change reported by a provider, in our vocabulary. */
export interface StatusUpdate {
  status: CallStatus;
  at: Date;
  /** Seconds answered, when the provider says so; else computed from started_at. */
  durationS?: number;
  disconnectReason?: string;
  latencyMs?: number;
  /** Who answered, when the provider detected it. */
  answeredBy?: AnsweredBy;
  transcript?: { turns: StoredTurn[]; language: string };
}

export interface PlaceRequest {
  callId: string;
  companyId: string;
  from: string;
  to: string;
  /** The call's agent, for providers that carry the conversation (Twilio's relay TwiML). */
  agent: RelayAgentSettings;
  /** Whether the provider records the call, and on how many channels. */
  recording: CallRecording;
}

/**
 * A telephony provider. `place` asks it to dial and returns its call id; status updates
 * arrive later (provider callbacks, or the simulated provider's own jobs) and go through
 * CallLifecycleService.applyUpdate, which ignores duplicates and out-of-order updates.
 */
export interface TelephonyAdapter {
  readonly name: string;
  place(request: PlaceRequest): Promise<string>;
  /** Hangs up (`live`: answered) or cancels (not yet answered) the provider's call. */
  cancel(providerSid: string, live: boolean): Promise<void>;
  /**
   * Whether the provider's account holds this E.164 number, so calls may be placed from it
   * and arrive to it (adding a phone number asks). The simulated provider holds every number.
   */
  holdsNumber(e164: string): Promise<boolean>;
  /**
   * The sids of the provider's calls placed from `from` to `to` since `since`, oldest first:
   * before dialling a call again, the call sweep adopts one of these rather than dial twice
   * (a sid returned while the database was down, docs/calls.md "Outages").
   */
  placedSince(call: Pick<PlaceRequest, 'from' | 'to'>, since: Date): Promise<string[]>;
  /** The provider's status of a call, as an update; null when it has none to give (the call sweep reconciles live calls with it). */
  currentStatus(providerSid: string, now: Date): Promise<StatusUpdate | null>;
  /** A recording's audio (`range`: the client's `Range` header); NotFound when the provider has none. */
  recording(recordingSid: string, range: string | undefined, call: { durationS: number }): Promise<RecordingMedia>;
  /** Deletes a recording at the provider (retention); one already gone counts as deleted. */
  deleteRecording(recordingSid: string): Promise<void>;
}

/** A recording's audio, or the part of it a `Range` asked for, as the provider serves it. */
export interface RecordingMedia {
  /** 200 (whole), 206 (the range asked), 416 (a range past the end). */
  status: number;
  type: string;
  /** Content-Length, when known. */
  length: string | undefined;
  /** Content-Range, for 206 and 416. */
  range: string | undefined;
  body: NodeJS.ReadableStream | Buffer;
}
