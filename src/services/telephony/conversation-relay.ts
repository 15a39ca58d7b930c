import twilio from 'twilio';

/** Where Twilio opens the relay's websocket, on our public host (docs/calls.md, "Twilio"). */
export const RELAY_PATH = '/v1/telephony/twilio/relay';
/** Where Twilio posts when the relay session ends (the `<Connect action>`). */
export const RELAY_ENDED_PATH = '/v1/telephony/twilio/relay-ended';

/** The agent settings the TwiML carries; the rest of the agent is the engine's business. */
export interface RelayAgentSettings {
  /** BCP 47, for both speech recognition and text-to-speech. */
  language: string;
  /** 0-100: 0 means the callee cannot talk over the agent; higher interrupts more readily. */
  interruptionSensitivity: number;
}

/** `interruptSensitivity` for a 0-100 `interruption_sensitivity` (thirds of the scale). */
function sensitivity(value: number): 'low' | 'medium' | 'high' {
  if (value <= 33) return 'low';
  return value <= 66 ? 'medium' : 'high';
}

/** The websocket URL of the relay: PUBLIC_BASE_URL with ws:// for http://, wss:// for https://. */
export function relayUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/^http/, 'ws')}${RELAY_PATH}`;
}

/**
 * The TwiML that connects a call to its agent: `<Connect>` to a `<ConversationRelay>` on our
 * websocket, with the call id as a custom parameter (it comes back in the `setup` message),
 * and our action URL that Twilio posts to when the session ends. The agent speaks through
 * the websocket (no `welcomeGreeting`), so that who talks first is the engine's decision.
 * DTMF detection is on: the callee's keys reach the agent. Escaping is twilio's builder's.
 */
export function conversationRelayTwiml(publicBaseUrl: string, callId: string, agent: RelayAgentSettings): string {
  const response = new twilio.twiml.VoiceResponse();
  const connect = response.connect({ action: `${publicBaseUrl}${RELAY_ENDED_PATH}?call_id=${encodeURIComponent(callId)}` });
  const interruptible = agent.interruptionSensitivity > 0;
  const relay = connect.conversationRelay({
    url: relayUrl(publicBaseUrl),
    language: agent.language,
    dtmfDetection: true,
    interruptible: interruptible ? 'any' : 'none',
    ...(interruptible ? { interruptSensitivity: sensitivity(agent.interruptionSensitivity) } : {}),
  });
  relay.parameter({ name: 'call_id', value: callId });
  return response.toString();
}
