import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Call } from '../../entities';
import { LIVE_STATUSES } from '../../entities/call.entity';
import type { Logger } from '../../logger';
import { readAgentFlow } from '../conversation/agent-flow';
import { allowedTransfer } from '../conversation/call-tools';
import type { Conversation, ConversationOpener, ConversationSink } from '../conversation/conversation';
import { agentOfCall } from '../conversation/conversation.service';
import type { EventPublisher } from '../events';
import { parseHandoff, websocketBase } from './conversation-relay';
import { claimRelaySession, closeRelaySession } from './relay-session.store';
import type { TelephonyAdapter } from './telephony';
import { signedTwilioCall } from './twilio-callback';
import { TwilioTelephony } from './twilio.telephony';

const UUID = /^[0-9a-f-]{36}$/i;

/** A relay session admitted: the conversation it may open (its token's call only), and its release once its socket is gone. */
export interface RelayAdmission {
  open(callId: string, callSid: string, sink: ConversationSink): Promise<Conversation | null>;
  release(): Promise<void>;
}
/** `disconnect_reason` of a call whose relay session ended without our handoff while the callee was still on the line. */
export const RELAY_DROPPED = 'relay_dropped';

/**
 * Why a relay session that ended without our handoff ended, from the call's status in the
 * action callback: still `in-progress`, the relay died under a callee still on the line;
 * `completed`, the call itself is over, and since every end of ours (the agent's, a transfer,
 * an answering machine's hang-up, a cancel) records its own reason, the callee hung up.
 */
function endedWithoutHandoff(callStatus: string | undefined): string | null {
  if (callStatus === 'in-progress') return RELAY_DROPPED;
  return callStatus === 'completed' ? 'user_hangup' : null;
}

/**
 * The service side of Twilio ConversationRelay (docs/calls.md, "Twilio"): who may open a
 * relay websocket, which call's conversation a session carries, and what the session's end
 * means for the call.
 */
export class RelayService {
  constructor(
    private readonly orm: MikroORM,
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
    if (!(await claimRelaySession(this.orm.em.fork(), claim))) {
      this.logger.warn({ callId: claim.callId }, 'relay handshake refused: its token was used, or the call has a session open');
      return null;
    }
    return {
      open: (callId, callSid, sink) => (callId === claim.callId ? this.open(callId, callSid, sink) : Promise.resolve(null)),
      release: () => closeRelaySession(this.orm.em.fork(), claim.nonce),
    };
  }

  /**
   * The conversation of the call named by the session's `setup`: only a live call whose
   * provider sid is the session's `callSid`; null otherwise.
   */
  private async open(callId: string, callSid: string, sink: ConversationSink): Promise<Conversation | null> {
    const call = await this.orm.em.fork().findOne(Call, { id: callId }, { fields: ['callSid', 'callStatus'], comments: ['provider:call-by-id'] });
    if (!call || call.callSid === '' || call.callSid !== callSid || !LIVE_STATUSES.includes(call.callStatus)) return null;
    return this.conversations!.open(callId, sink);
  }

  /**
   * The relay's action callback, signed like any Twilio callback. Records why the session
   * ended (the handoff data our relay put in its `end` message) as the call's
   * `disconnect_reason`, whichever of this and the `completed` status callback comes first;
   * answers the number to dial for a transfer, else null (hang up). A session that ended
   * without our handoff while the call is still `in-progress` (the socket dropped, this service
   * restarted) records `relay_dropped`; one whose call is `completed` (the callee hung up)
   * records `user_hangup`. A transfer to a number the call's agent does not allow
   * (agent_flow.transfer_numbers, checked again here: the handoff came through the relay
   * socket) records nothing, and is hung up and logged as a warning.
   */
  async sessionEnded(url: string, params: Record<string, string>, signature: string): Promise<{ transferTo: string | null }> {
    const em = this.orm.em.fork();
    const { call } = await signedTwilioCall(this.provider, em, url, params, signature);
    const handoff = parseHandoff(params.HandoffData);
    if (!handoff) this.logger.info({ callId: call.id, sessionStatus: params.SessionStatus, error: params.ErrorCode }, 'relay session ended without handoff');
    const transferTo = handoff?.reason === 'call_transfer' ? (handoff.transfer_to ?? null) : null;
    if (transferTo && !(await this.transferAllowed(em, call, transferTo))) {
      this.logger.warn({ callId: call.id, company_id: call.company.id, transferTo }, 'relay asked to transfer to a number the agent does not allow; hanging up');
      return { transferTo: null };
    }
    const reason = handoff?.reason ?? endedWithoutHandoff(params.CallStatus);
    if (!reason) return { transferTo: null };
    // Live: recorded now, and kept by the terminal transition (call-transitions.ts).
    // Already completed: replaces the status's default reason, not a specific one.
    const changed = await em.nativeUpdate(
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
    if (changed > 0) {
      await this.events.publish('call.updated', { companyId: call.company.id, callId: call.id, campaignId: call.campaign?.id ?? null, workspace: call.workspaceId });
    }
    return { transferTo };
  }

  /** Whether the call's agent lists `number` among its transfer numbers. */
  private async transferAllowed(em: EntityManager, call: Call, number: string): Promise<boolean> {
    const agent = await agentOfCall(em, call);
    return agent !== null && allowedTransfer(readAgentFlow(agent.agentFlow).transfer_numbers ?? [], number) !== undefined;
  }
}
