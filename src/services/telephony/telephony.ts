import type { CallStatus } from '../../entities/call.entity';
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
  transcript?: { turns: StoredTurn[]; language: string };
}

export interface PlaceRequest {
  callId: string;
  companyId: string;
  from: string;
  to: string;
  /** The call's agent, for providers that carry the conversation (Twilio's relay TwiML). */
  agent: RelayAgentSettings;
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
}
