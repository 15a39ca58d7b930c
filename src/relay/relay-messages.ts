import { z } from 'zod';

/**
 * The messages Twilio's ConversationRelay sends over the websocket, as its published
 * reference describes them (docs/calls.md, "Twilio"). Fields we do not use are let through
 * (Twilio adds some over time); those we use are checked. `durationUntilInterruptMs`
 * arrives as a number or a numeric string depending on the reference's version.
 */
export const incomingMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('setup'),
    sessionId: z.string().max(100).optional(),
    callSid: z.string().min(1).max(100),
    customParameters: z.record(z.string(), z.string().max(1000)).optional(),
  }),
  z.object({
    type: z.literal('prompt'),
    voicePrompt: z.string().max(10_000),
    lang: z.string().max(35).optional(),
    last: z.boolean(),
  }),
  z.object({
    type: z.literal('interrupt'),
    utteranceUntilInterrupt: z.string().max(10_000),
    durationUntilInterruptMs: z.union([z.number(), z.string().max(20)]).optional(),
  }),
  z.object({ type: z.literal('dtmf'), digit: z.string().regex(/^[0-9*#A-D]$/) }),
  z.object({ type: z.literal('error'), description: z.string().max(10_000) }),
  /**
   * What the TwiML's `events` attribute asks for (docs/calls.md, "Playback"): `agentSpeaking` and
   * `clientSpeaking` with `value` `on` or `off` (`speaker-events`), with `ts` in ms since the
   * epoch; `tokensPlayed` with the text just played as `value` (`tokens-played`). Other names
   * are let through and ignored.
   */
  z.object({
    type: z.literal('info'),
    name: z.string().max(100),
    value: z.string().max(10_000).optional(),
    ts: z.union([z.number(), z.string().regex(/^\d{1,16}$/)]).optional(),
  }),
]);

export type IncomingMessage = z.infer<typeof incomingMessage>;

/**
 * What we send: a piece of the agent's turn, audio to play, the end of the session, digits, a
 * language switch. A `text` may say whether the callee can interrupt it (`interruptible`) and
 * whether what is sent after it cuts it short (`preemptible`); unsaid, the TwiML's attributes
 * decide (not preemptible).
 */
export type OutgoingMessage =
  | { type: 'text'; token: string; last: boolean; interruptible?: boolean; preemptible?: boolean }
  | { type: 'play'; source: string; loop?: number; preemptible?: boolean; interruptible?: boolean }
  | { type: 'end'; handoffData: string }
  | { type: 'sendDigits'; digits: string }
  | { type: 'language'; ttsLanguage: string; transcriptionLanguage: string };
