/**
 * The contract between a call's conversation (the agent on the call) and the transports that
 * carry it: Twilio ConversationRelay over a websocket, the simulated provider in process, the
 * playground. The engine knows no transport (docs/architecture.md, "Conversations"): words and
 * events come in through `Conversation`, words and actions go out through `ConversationSink`.
 */

/** Why a conversation ended, as stored in the call's `disconnect_reason`. */
export type ConversationEndReason =
  /** The agent ended the call (the `end_call` tool, or the flow reached its end). */
  | 'agent_hangup'
  /** The callee hung up or the transport closed. */
  | 'user_hangup'
  /** The agent transferred the call (`transfer_call`). */
  | 'call_transfer'
  /** No word from the callee for the agent's maximum silence. */
  | 'max_silence'
  /** The language model was unreachable, too slow or broke mid-answer. */
  | 'llm_error'
  /** An answering machine answered; the agent left its message, or not (docs/agents.md, "Answering machines"). */
  | 'voicemail_reached';

/**
 * Where an answering machine is when the conversation learns of it: `greeting`, its greeting
 * is playing (the agent stops and waits); `message_end`, the greeting is over (the agent
 * leaves its message, if any, and ends the call).
 */
export type MachineMoment = 'greeting' | 'message_end';

/**
 * What the transport reports of the call's audio (Twilio's `info` messages, when the TwiML
 * asks for them): whose voice starts or stops (`at`, ms since the epoch, on the transport's
 * clock when it says), and the agent's text as it is played.
 */
export type SpeechEvent = { kind: 'agentSpeaking' | 'calleeSpeaking'; on: boolean; at: number } | { kind: 'tokensPlayed'; text: string };

/**
 * What a conversation says and does. A transport turns each into its own messages; every
 * method returns at once (sending is the transport's business, in order).
 */
export interface ConversationSink {
  /**
   * True when the transport has said the agent's welcome greeting itself as the call
   * connected (Twilio's `welcomeGreeting`): the engine then only stores it as the first turn.
   */
  readonly welcomeGreetingSpoken?: boolean;
  /**
   * A piece of the agent's turn, streamed as the model produces it. `last` closes the turn
   * (the closing piece may be empty). Tokens of one turn arrive in order.
   */
  text(token: string, last: boolean): void;
  /**
   * A whole line said as is and not interruptible (an opening disclosure, a voicemail
   * message); `end` after it waits until it has been spoken.
   */
  say(text: string): void;
  /** Ends the session once what was already sent has been spoken. */
  end(reason: ConversationEndReason): void;
  /**
   * Hands the caller to `number` (E.164), then ends the session; `summary`, for a warm
   * transfer, is what the person taking the call is told first.
   */
  transfer(number: string, summary: string | null): void;
  /** Plays the audio at `url` to the caller (hold audio while a warm transfer is prepared). */
  play(url: string): void;
  /** Plays DTMF digits (`0-9`, `*`, `#`, `w` for a half-second pause) into the call. */
  sendDigits(digits: string): void;
  /** Switches the speech language (BCP 47) for what follows. */
  language(code: string): void;
}

/**
 * One live conversation. Inputs are the callee's side, as the transport hears it; each may
 * come at any time, and the engine orders them (an utterance during the agent's turn cancels
 * the turn in flight).
 */
export interface Conversation {
  /** Starts the conversation: the agent greets when it talks first, else it waits. */
  start(): Promise<void>;
  /** What the callee said; `final` false for a partial transcript the engine may ignore. */
  userSaid(text: string, final: boolean): Promise<void>;
  /**
   * The callee spoke over the agent: the agent's turn in the history is cut to what was
   * actually heard (`spokenSoFar`), and the rest of it is dropped.
   */
  interrupted(spokenSoFar: string): void;
  /** A key the callee pressed. */
  dtmf(digit: string): Promise<void>;
  /**
   * What the transport reports of the audio: silence is timed from the end of the agent's voice,
   * an answer's voice-to-voice latency measured, and what was played of the agent's turns kept
   * as they are stored at the end (docs/calls.md, "Playback").
   */
  speech(event: SpeechEvent): void;
  /** The callee has been silent for a while (reminders, then a hang-up after the maximum). */
  silence(): Promise<void>;
  /**
   * An answering machine answered (`moment`): the agent stops its turn and hears nothing
   * more; at `message_end` it says `message` (when not null) and ends with `voicemail_reached`.
   */
  answeringMachine(moment: MachineMoment, message: string | null): Promise<void>;
  /** The transport is gone (hang-up, socket closed): stops generating, keeps what is stored. */
  close(reason: ConversationEndReason): Promise<void>;
}

/**
 * How a session of a call's conversation opens: `new`, the call's first (the opening
 * disclosure, then the greeting or the wait); `resumed`, a session taken up again after the
 * transport dropped; `transfer_failed`, the agent back after a transfer nobody took. The last
 * two go on from the stored transcript (docs/calls.md, "A call that survives its replica").
 */
export const CONVERSATION_OPENINGS = ['new', 'resumed', 'transfer_failed'] as const;
export type ConversationOpening = (typeof CONVERSATION_OPENINGS)[number];

/**
 * Opens the conversation of a live call with its agent; null when the call is unknown or ended,
 * or, with `providerSid`, when the provider's sid of the call is not that one.
 */
export interface ConversationOpener {
  open(callId: string, sink: ConversationSink, opening?: ConversationOpening, providerSid?: string): Promise<Conversation | null>;
}
