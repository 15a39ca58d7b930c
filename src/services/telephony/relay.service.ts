import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Call } from '../../entities';
import { LIVE_STATUSES } from '../../entities/call.entity';
import type { Logger } from '../../logger';
import type { ViewReads } from '../../db/statements';
import { readAgentFlow } from '../conversation/agent-flow';
import { allowedTransfer } from '../conversation/call-tools';
import type { Conversation, ConversationOpener, ConversationOpening, ConversationSink } from '../conversation/conversation';
import { agentOfCall } from '../conversation/conversation.service';
import type { EventPublisher } from '../platform/events';
import { startTransfer } from '../calls/call-transfer.store';
import { hangupTwiml, parseHandoff, websocketBase } from './conversation-relay';
import { claimRelaySession, closeRelaySession, makeWayForSession } from './relay-session.store';
import type { TelephonyAdapter } from './telephony';
import { signedTwilioCall } from './twilio-callback';
import { transferTwiml } from './transfer-twiml';
import { TwilioTelephony } from './twilio.telephony';

const UUID = /^[0-9a-f-]{36}$/i;

/** A relay session admitted: the conversation it may open (its token's call only), and its release once its socket is gone. */
export interface RelayAdmission {
  open(callId: string, callSid: string, sink: ConversationSink, opening: ConversationOpening): Promise<Conversation | null>;
  release(): Promise<void>;
}
/** `disconnect_reason` of a call whose relay session dropped while conversations are off (no new session can carry it). */
export const RELAY_DROPPED = 'relay_dropped';
/** `disconnect_reason` of a call whose relay session dropped once more than it may be resumed. */
export const PROVIDER_ERROR = 'provider_error';
/** Sessions of one call resumed after a drop, at most (docs/calls.md, "A call that survives its replica"). */
export const MAX_RESUMES = 3;

/**
 * The service side of Twilio ConversationRelay (docs/calls.md, "Twilio"): who may open a
 * relay websocket, which call's conversation a session carries, and what the session's end
 * means for the call.
 */
export class RelayService {
  constructor(
    private readonly orm: MikroORM,
    /** Where a session's claim and release run (the side pool's prepared statements). */
    private readonly reads: ViewReads,
    private readonly provider: TelephonyAdapter,
    /** The conversation engine; null when no language model is configured (no relay). */
    private readonly conversations: ConversationOpener | null,
    private readonly events: EventPublisher,
    private readonly publicBaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /**
   * The session a websocket handshake on `pathAndQuery` may open, or null (refused): its
   * `X-Twilio-Signature` must sign the exact wss URL it opened, as for any Twilio webhook, and
   * that URL's `token` must be one we minted for a call, unexpired and never used, for a call
   * with no open session (`claimRelaySession`, the one rule). The session's conversation can
   * only be the token's call; `release` closes the session when its socket is gone.
   */
  async admit(pathAndQuery: string, signature: string): Promise<RelayAdmission | null> {
    if (!(this.provider instanceof TwilioTelephony) || !this.conversations || !signature) return null;
    if (!this.provider.verify(`${websocketBase(this.publicBaseUrl)}${pathAndQuery}`, {}, signature)) return null;
    const token = new URL(pathAndQuery, 'ws://relay').searchParams.get('token');
    const claim = token ? this.provider.relayToken(token, new Date()) : null;
    if (!claim || !UUID.test(claim.callId)) return null;
    if (!(await claimRelaySession(this.reads, claim))) {
      this.logger.warn({ callId: claim.callId }, 'relay handshake refused: its token was used, or the call has a session open');
      return null;
    }
    return {
      open: (callId, callSid, sink, opening) => (callId === claim.callId ? this.open(callId, callSid, sink, opening) : Promise.resolve(null)),
      release: () => closeRelaySession(this.reads, claim.nonce),
    };
  }

  /**
   * The conversation of the call named by the session's `setup`: only a live call whose
   * provider sid is the session's `callSid`; null otherwise (one read of the call, the conversation's).
   */
  private open(callId: string, callSid: string, sink: ConversationSink, opening: ConversationOpening): Promise<Conversation | null> {
    return this.conversations!.open(callId, sink, opening, callSid);
  }

  /**
   * The relay's action callback, signed like any Twilio callback; answers the TwiML the call
   * runs next. Records why the session ended (the handoff data our relay put in its `end`
   * message) as the call's `disconnect_reason`, whichever of this and the `completed` status
   * callback comes first, and answers the transfer's `<Dial>` (`transferred`), else `<Hangup/>`. A
   * session that ended without our handoff while the call is still `in-progress` dropped (its
   * replica died, or stopped): it is resumed (`dropped`). One whose call is `completed` (since
   * every end of ours records its own reason: the callee hung up) records `user_hangup`. A
   * transfer to a number the call's agent does not allow (agent_flow.transfer_numbers, checked
   * again here: the handoff came through the relay socket) records nothing, and is hung up
   * and logged as a warning.
   */
  async sessionEnded(url: string, params: Record<string, string>, signature: string): Promise<string> {
    const em = this.orm.em.fork();
    const { call } = await signedTwilioCall(this.provider, em, url, params, signature);
    const handoff = parseHandoff(params.HandoffData);
    if (!handoff) this.logger.info({ callId: call.id, sessionStatus: params.SessionStatus, error: params.ErrorCode }, 'relay session ended without handoff');
    if (handoff?.reason === 'call_transfer' && handoff.transfer_to) return this.transferred(em, call, handoff.transfer_to, handoff.summary ?? null);
    // Without our handoff while the callee is still on the line (they did not hang up): the relay died.
    if (!handoff && params.CallStatus === 'in-progress') return this.dropped(em, call);
    const reason = handoff?.reason ?? (params.CallStatus === 'completed' ? 'user_hangup' : null);
    if (reason) await this.recordReason(call, reason);
    return hangupTwiml();
  }

  /**
   * The agent transferred the call to `to` (docs/calls.md, "Transfers"): recorded on the call
   * (`transfer`, `dialing`, in the agent's `transfer_mode`, with a warm transfer's summary for
   * its whisper) and dialled. A cold transfer ends the agent's part: `call_transfer` is its
   * reason at once; a warm one's reason waits for the person to take the call (nobody taking
   * it, the agent comes back: TransferService). A number the agent does not allow is hung up.
   */
  private async transferred(em: EntityManager, call: Call, to: string, summary: string | null): Promise<string> {
    const agent = await agentOfCall(em, call);
    if (!agent || allowedTransfer(readAgentFlow(agent.agentFlow).transfer_numbers ?? [], to) === undefined) {
      this.logger.warn({ callId: call.id, company_id: call.company.id, transferTo: to }, 'relay asked to transfer to a number the agent does not allow; hanging up');
      return hangupTwiml();
    }
    const mode = agent.transferMode;
    if (mode === 'cold') await this.recordReason(call, 'call_transfer');
    await startTransfer(em, { id: call.id, companyId: call.company.id }, { to, mode, status: 'dialing', started_at: new Date().toISOString() }, mode === 'warm' ? summary : null);
    await this.published(call);
    return transferTwiml(this.publicBaseUrl, call.id, to, mode);
  }

  /**
   * A session that dropped: with conversations on, a new session of the same call (docs/calls.md,
   * "A call that survives its replica"), counted in its `resumes`; past `MAX_RESUMES` (or when
   * the call can have no new session: ended, its agent gone) the call is hung up with
   * `provider_error`. Without conversations (a call placed before they were turned off) it
   * is hung up with `relay_dropped`.
   */
  private async dropped(em: EntityManager, call: Call): Promise<string> {
    const twiml = this.conversations ? await this.reopen(em, call, 'resumed') : null;
    if (twiml) {
      this.logger.info({ callId: call.id, company_id: call.company.id }, 'relay session resumed after a drop');
      await this.published(call);
      return twiml;
    }
    await this.recordReason(call, this.conversations ? PROVIDER_ERROR : RELAY_DROPPED);
    return hangupTwiml();
  }

  /**
   * The TwiML of a new relay session of the call's conversation (`opening`: how it starts),
   * with a token of its own, once its old session is out of the way (`makeWayForSession`: a
   * resume counts, up to `MAX_RESUMES`); null when the call may not have one.
   */
  async reopen(em: EntityManager, call: Call, opening: Exclude<ConversationOpening, 'new'>): Promise<string | null> {
    if (!(this.provider instanceof TwilioTelephony)) return null;
    const agent = await agentOfCall(em, call);
    if (!agent || !(await makeWayForSession(em, { id: call.id, companyId: call.company.id }, opening === 'resumed' ? MAX_RESUMES : null))) return null;
    // A session taken up again says its own line: no welcome greeting.
    return this.provider.callTwiml({ callId: call.id, agent: { language: agent.language, interruptionSensitivity: agent.interruptionSensitivity, welcomeGreeting: '' } }, opening);
  }

  /**
   * Records why the call ended: on a live call now (the terminal transition keeps it,
   * call-transitions.ts); on a completed one in place of the status's default reason, not of a
   * specific one.
   */
  async recordReason(call: Call, reason: string): Promise<void> {
    const changed = await this.orm.em.fork().nativeUpdate(
      Call,
      {
        id: call.id,
        company: call.company.id,
        $or: [
          { callStatus: { $in: [...LIVE_STATUSES] }, disconnectReason: '' },
          { callStatus: 'completed', disconnectReason: 'completed' },
        ],
      },
      { disconnectReason: reason },
    );
    if (changed > 0) await this.published(call);
  }

  /** Announces a change of the call (`call.updated`). */
  published(call: Call): Promise<void> {
    return this.events.publish('call.updated', { companyId: call.company.id, callId: call.id, campaignId: call.campaign?.id ?? null, workspace: call.workspaceId });
  }
}
