import twilio from 'twilio';
import { conversationRelayTwiml } from '../telephony/conversation-relay';
import type { InboundAnswer } from './inbound-call.service';

/**
 * What Twilio is told to do with an incoming call: `<Reject/>` when no agent answers the
 * number, `<Reject reason="busy"/>` over the company's concurrent-call limit, else the
 * ConversationRelay connecting the call to its agent (issue 12's builder).
 */
export function inboundTwiml(answer: InboundAnswer, publicBaseUrl: string): string {
  if (answer.kind === 'connect') {
    const { agent } = answer;
    return conversationRelayTwiml(publicBaseUrl, answer.callId, { language: agent.language, interruptionSensitivity: agent.interruptionSensitivity });
  }
  const response = new twilio.twiml.VoiceResponse();
  response.reject(answer.kind === 'busy' ? { reason: 'busy' } : {});
  return response.toString();
}
