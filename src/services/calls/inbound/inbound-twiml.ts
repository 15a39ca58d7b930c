import twilio from 'twilio';
import type { TwilioTelephony } from '../../telephony/twilio.telephony';
import type { RelayAgentSettings } from '../../telephony/conversation-relay';

/** How an incoming call was answered. */
export type InboundAnswer = { kind: 'reject' } | { kind: 'busy'; callId: string } | { kind: 'connect'; callId: string; agent: RelayAgentSettings };

/**
 * What Twilio is told to do with an incoming call: `<Reject/>` when no agent answers the
 * number, `<Reject reason="busy"/>` over the company's concurrent-call limit, else what the
 * calls we place run: the ConversationRelay to its agent (docs/calls.md).
 */
export function inboundTwiml(answer: InboundAnswer, twilioProvider: TwilioTelephony): string {
  if (answer.kind === 'connect') return twilioProvider.callTwiml({ callId: answer.callId, agent: answer.agent });
  const response = new twilio.twiml.VoiceResponse();
  response.reject(answer.kind === 'busy' ? { reason: 'busy' } : {});
  return response.toString();
}
