import twilio from 'twilio';
import { z } from 'zod';
import type { ConversationEndReason, ConversationOpening } from '../conversation/conversation';

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
  /** Said by Twilio as the call connects (`welcomeGreeting`), placeholders filled; empty: none. */
  welcomeGreeting: string;
}

/**
 * The custom parameter telling the relay session that Twilio says the welcome greeting
 * itself (`<Parameter name="welcome_greeting" value="spoken">`, back in the `setup` message).
 */
export const GREETING_PARAMETER = 'welcome_greeting';

/** `interruptSensitivity` for a 0-100 `interruption_sensitivity` (thirds of the scale). */
function sensitivity(value: number): 'low' | 'medium' | 'high' {
  if (value <= 33) return 'low';
  return value <= 66 ? 'medium' : 'high';
}

/** PUBLIC_BASE_URL in its websocket form: ws:// for http://, wss:// for https://. */
export function websocketBase(publicBaseUrl: string): string {
  return publicBaseUrl.replace(/^http/, 'ws');
}

/** The websocket URL of one relay session, as the TwiML names it and Twilio signs it: `token` admits it once (relay-token.ts). */
export function relayUrl(publicBaseUrl: string, token: string): string {
  return `${websocketBase(publicBaseUrl)}${RELAY_PATH}?token=${encodeURIComponent(token)}`;
}

/** What `events` asks ConversationRelay for: whose voice starts and stops, and the agent's text as played (`info` messages). */
export const RELAY_INFO_EVENTS = 'speaker-events tokens-played';

/**
 * The TwiML that connects a call to its agent: `<Connect>` to a `<ConversationRelay>` on our
 * websocket (its URL carrying the session's single-use `token`), with the call id as a custom
 * parameter (it comes back in the `setup` message), and the session's `opening` when it is not
 * the call's first (`resumed`, `transfer_failed`), and our action URL that Twilio posts to
 * when the session ends. The agent speaks through the websocket, except its welcome greeting
 * when it has one (`welcomeGreeting`, sparing a model round trip; `GREETING_PARAMETER` tells the
 * session so) in the call's first session: a session taken up again says its own line.
 * DTMF detection is on: the callee's keys reach the agent. With `infoEvents`, Twilio reports
 * playback (`events`: docs/calls.md, "Playback"). Escaping is twilio's builder's.
 */
export function conversationRelayTwiml(publicBaseUrl: string, callId: string, agent: RelayAgentSettings, token: string, opening: ConversationOpening = 'new', infoEvents = false): string {
  const response = new twilio.twiml.VoiceResponse();
  const connect = response.connect({ action: `${publicBaseUrl}${RELAY_ENDED_PATH}?call_id=${encodeURIComponent(callId)}` });
  const interruptible = agent.interruptionSensitivity > 0;
  const greeting = opening === 'new' && agent.welcomeGreeting !== '';
  const relay = connect.conversationRelay({
    url: relayUrl(publicBaseUrl, token),
    language: agent.language,
    dtmfDetection: true,
    interruptible: interruptible ? 'any' : 'none',
    ...(interruptible ? { interruptSensitivity: sensitivity(agent.interruptionSensitivity) } : {}),
    ...(greeting ? { welcomeGreeting: agent.welcomeGreeting } : {}),
    ...(infoEvents ? { events: RELAY_INFO_EVENTS } : {}),
  });
  relay.parameter({ name: 'call_id', value: callId });
  if (greeting) relay.parameter({ name: GREETING_PARAMETER, value: 'spoken' });
  if (opening !== 'new') relay.parameter({ name: 'opening', value: opening });
  return response.toString();
}

const END_REASONS = ['agent_hangup', 'user_hangup', 'call_transfer', 'max_silence', 'llm_error', 'voicemail_reached'] as const satisfies readonly ConversationEndReason[];

/**
 * What our relay puts in the `end` message's `handoffData` (a string of JSON), and Twilio
 * hands back to the action callback: why the session ended and, for a transfer, to whom and,
 * for a warm one, what the person is told first.
 */
export const relayHandoff = z.object({
  reason: z.enum(END_REASONS),
  transfer_to: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number')
    .optional(),
  summary: z.string().max(2000).optional(),
});

export type RelayHandoff = z.infer<typeof relayHandoff>;

/** The handoff of a parsed `HandoffData` string, or null when absent or not ours. */
export function parseHandoff(data: string | undefined): RelayHandoff | null {
  if (!data) return null;
  try {
    const parsed = relayHandoff.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** What the call does once the relay session is over and nothing follows it: hang up. */
export function hangupTwiml(): string {
  const response = new twilio.twiml.VoiceResponse();
  response.hangup();
  return response.toString();
}
