import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import { endTransfer } from '../calls/call-transfer.store';
import { agentOfCall } from '../conversation/conversation.service';
import { storedTurnsOf } from '../conversation/resumption';
import { lastTurnsSummary } from '../conversation/transfer-summary';
import { hangupTwiml } from './conversation-relay';
import type { RelayService } from './relay.service';
import type { TelephonyAdapter } from './telephony';
import { transferStatusOf, whisperTwiml } from './transfer-twiml';
import { signedTwilioCall } from './twilio-callback';

/**
 * The Twilio side of a transfer once dialled (docs/calls.md, "Transfers"): the whisper the
 * person taking a warm transfer hears, and the `<Dial>`'s end, which stores the transfer's
 * result and either ends the call or, for a warm transfer nobody took, brings the agent back.
 */
export class TransferService {
  constructor(
    private readonly orm: MikroORM,
    private readonly provider: TelephonyAdapter,
    private readonly relay: RelayService,
    private readonly logger: Logger,
  ) {}

  /**
   * The whisper (`<Number url>`), fetched by Twilio for the person who answered, signed like
   * every callback and naming our call as its `ParentCallSid`: `<Say>` of the summary made when
   * the agent transferred, or of the last stored turns without one.
   */
  async whisper(url: string, params: Record<string, string>, signature: string): Promise<string> {
    const em = this.orm.em.fork();
    const { call } = await signedTwilioCall(this.provider, em, url, params, signature, 'ParentCallSid');
    const agent = await agentOfCall(em, call);
    return whisperTwiml(call.transferSummary ?? lastTurnsSummary(storedTurnsOf(call.transcriptObject)), agent?.language ?? 'en-US');
  }

  /**
   * The `<Dial action>` callback: the transfer's status from `DialCallStatus`, then, taken
   * (`completed`), the call ends with `call_transfer` (`<Hangup/>`); not taken, a warm
   * transfer whose caller is still on the line brings the agent back (a new relay session,
   * `transfer_failed`: it tells the caller and goes on); anything else ends the call with
   * `call_transfer`.
   */
  async dialEnded(url: string, params: Record<string, string>, signature: string): Promise<string> {
    const em = this.orm.em.fork();
    const { call } = await signedTwilioCall(this.provider, em, url, params, signature);
    const status = transferStatusOf(params.DialCallStatus);
    const transfer = await endTransfer(em, { id: call.id, companyId: call.company.id }, status);
    this.logger.info({ callId: call.id, company_id: call.company.id, dialCallStatus: params.DialCallStatus, mode: transfer?.mode }, 'transfer ended');
    if (transfer) await this.relay.published(call);
    const comeback = status !== 'completed' && transfer?.mode === 'warm' && params.CallStatus === 'in-progress';
    const twiml = comeback ? await this.relay.reopen(em, call, 'transfer_failed') : null;
    if (twiml) return twiml;
    await this.relay.recordReason(call, 'call_transfer');
    return hangupTwiml();
  }
}
