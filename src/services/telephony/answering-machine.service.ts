import type { MikroORM } from '@mikro-orm/postgresql';
import { Call } from '../../entities';
import { LIVE_STATUSES } from '../../entities/call.entity';
import type { Logger } from '../../logger';
import { voicemailMessageOf } from '../conversation/agent-settings';
import { agentOfCall } from '../conversation/conversation.service';
import type { EventPublisher } from '../platform/events';
import { answeredByOf, isTwilioAnsweredBy, machineMomentOf, voicemailTwiml } from './answering-machine';
import type { TelephonyAdapter } from './telephony';
import { signedTwilioCall } from './twilio-callback';

/**
 * Twilio's asynchronous answering-machine detection (docs/calls.md, "Answering machines"): the
 * verdict is stored on the call (`answered_by`, and Twilio's own value for the conversation),
 * then acted on as the agent's `voicemail_action` says. Hanging up is the Calls API's
 * (`Status=completed`), from any replica; leaving a message is the conversation's, on the
 * replica holding the relay session, told through the bus (`call.machine`). Without
 * conversations (no language model) the message is said by TwiML `<Say>` instead.
 */
export class AnsweringMachineService {
  constructor(
    private readonly orm: MikroORM,
    private readonly provider: TelephonyAdapter,
    private readonly events: EventPublisher,
    /** Whether calls carry a conversation on the relay (a language model is configured). */
    private readonly conversations: boolean,
    private readonly logger: Logger,
  ) {}

  /** The `AsyncAmdStatusCallback`, signed like any Twilio callback (AnsweredBy, MachineDetectionDuration, CallSid...). */
  async receiveTwilio(url: string, params: Record<string, string>, signature: string): Promise<void> {
    const em = this.orm.em.fork();
    const { twilio: provider, call } = await signedTwilioCall(this.provider, em, url, params, signature);
    const verdict = params.AnsweredBy;
    if (!isTwilioAnsweredBy(verdict)) {
      this.logger.warn({ callId: call.id, answeredBy: verdict }, 'answering-machine verdict ignored: unknown AnsweredBy');
      return;
    }
    if (!LIVE_STATUSES.includes(call.callStatus)) return;
    const agent = await agentOfCall(em, call);
    const action = agent?.voicemailAction ?? 'hangup';
    const moment = machineMomentOf(verdict);
    const ends = verdict === 'fax' || (moment === 'message_end' && action !== 'continue');
    const live = { id: call.id, company: call.company.id, callStatus: { $in: [...LIVE_STATUSES] } };
    await em.nativeUpdate(Call, live, { answeredBy: answeredByOf(verdict), machineDetection: verdict });
    // Kept by the terminal transition, as a relay session's end reason is (call-transitions.ts).
    if (ends) await em.nativeUpdate(Call, { ...live, disconnectReason: '' }, { disconnectReason: 'voicemail_reached' });
    await this.events.publish('call.updated', { companyId: call.company.id, callId: call.id, campaignId: call.campaign?.id ?? null, workspace: call.workspaceId });
    if (moment === null && verdict !== 'fax') return;
    if (action === 'continue' && verdict !== 'fax') return;
    if (verdict === 'fax' || (moment === 'message_end' && action === 'hangup')) {
      await provider.cancel(call.callSid, true);
    } else if (this.conversations) {
      await this.events.publish('call.machine', { companyId: call.company.id, callId: call.id });
    } else if (moment === 'message_end' && agent) {
      await provider.redirect(call.callSid, voicemailTwiml(voicemailMessageOf(agent, call), agent.language));
    }
  }
}
