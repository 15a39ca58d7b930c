import { type RawData, WebSocket } from 'ws';
import type { Logger } from '../logger';
import { type Conversation, type ConversationEndReason, type ConversationOpening, type ConversationSink, CONVERSATION_OPENINGS, type SpeechEvent } from '../services/conversation/conversation';
import { PlaybackEstimate } from '../services/conversation/playback';
import { GREETING_PARAMETER, type RelayHandoff } from '../services/telephony/conversation-relay';
import { type IncomingMessage, incomingMessage, type OutgoingMessage } from './relay-messages';

/** What a session needs from the service: the conversation of the call its setup names. */
export interface RelayConversations {
  open(callId: string, callSid: string, sink: ConversationSink, opening: ConversationOpening): Promise<Conversation | null>;
}

/** The session's opening, from the `opening` custom parameter of its TwiML (none: the call's first session). */
const openingOf = (value: string | undefined): ConversationOpening | null => (value === undefined ? 'new' : (CONVERSATION_OPENINGS.find((o) => o === value) ?? null));

export interface RelayLimits {
  /** Messages one session may receive; past it the socket is closed. */
  maxMessages: number;
  /** Time the `setup` message may take after the handshake. */
  setupTimeoutMs: number;
}

/** Close codes: RFC 6455 1008 (policy violation) for a session we will not carry. */
const POLICY = 1008;

/**
 * One ConversationRelay websocket: Twilio's messages in, mapped to the call's
 * `Conversation`; the conversation's words and actions out, as Twilio's messages. Every
 * incoming message is checked; a malformed or unknown one is logged and ignored. Messages
 * are handed over in the order they came, none waits for the one before to be answered
 * (the engine orders them: an utterance cancels the agent's turn in flight).
 * ConversationRelay reports no silence: the engine times the callee's silence itself, from
 * the end of the agent's voice that Twilio's `info` events report (`speech`), when asked for.
 */
export class RelaySession implements ConversationSink {
  /** Settles once the socket has closed and the conversation has stored what it had. */
  readonly finished: Promise<void>;
  private markFinished!: () => void;
  /** Whether Twilio says the agent's welcome greeting (the TwiML's `welcomeGreeting`, as its setup tells). */
  welcomeGreetingSpoken = false;
  private conversation: Promise<Conversation | null> | null = null;
  private received = 0;
  private closed = false;
  /** Why we ended the session, when we did; else the socket's close is the callee's hang-up. */
  private endedWith: ConversationEndReason | null = null;
  /** When the lines said (`say`) stop being spoken, by the engine's estimate (at the default voice speed: the session does not know the agent's). */
  private readonly sayings = new PlaybackEstimate(50, Date.now);
  private endTimer: NodeJS.Timeout | null = null;
  /** Open from a text message sent until the end of that event-loop turn (`text`); `heldText`, what came meanwhile. */
  private textWindow: NodeJS.Immediate | null = null;
  private heldText = '';
  private readonly setupTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    private readonly conversations: RelayConversations,
    private readonly limits: RelayLimits,
    private readonly logger: Logger,
  ) {
    this.finished = new Promise<void>((resolve) => (this.markFinished = resolve));
    this.setupTimer = setTimeout(() => this.refuse('no setup message'), limits.setupTimeoutMs);
    socket.on('message', (data, binary) => this.receive(data, binary));
    socket.on('error', (err) => this.logger.warn({ err }, 'relay socket error'));
    socket.once('close', () => this.onClose());
  }

  /**
   * A piece of the agent's turn. The first piece of an event-loop turn goes at once; the pieces
   * that follow it in the same turn of the loop (a model's chunks read together) wait for its end
   * and go as one message, or with the turn's `last` piece at once: one socket write for them
   * all, which Twilio's `text` allows (a token is any number of characters).
   */
  text(token: string, last: boolean): void {
    if (this.textWindow === null) {
      this.write({ type: 'text', token, last });
      if (!last) this.textWindow = setImmediate(() => this.flushText(false));
      return;
    }
    this.heldText += token;
    if (last) this.flushText(true);
  }

  /** A line said whole: the callee cannot interrupt it, nor does what the agent says next cut it. */
  say(text: string): void {
    this.send({ type: 'text', token: text, last: true, interruptible: false, preemptible: false });
    this.sayings.sent(text);
  }

  end(reason: ConversationEndReason): void {
    this.finish({ reason });
  }

  transfer(number: string, summary: string | null): void {
    this.finish({ reason: 'call_transfer', transfer_to: number, ...(summary === null ? {} : { summary }) });
  }

  /** Plays `url` once, after what was sent before; the caller speaking does not stop it. */
  play(url: string): void {
    this.send({ type: 'play', source: url, loop: 1, interruptible: false });
  }

  sendDigits(digits: string): void {
    this.send({ type: 'sendDigits', digits });
  }

  language(code: string): void {
    this.send({ type: 'language', ttsLanguage: code, transcriptionLanguage: code });
  }

  /** Sends `end` once the lines said are spoken: Twilio ends the session at once, cutting any speech still playing. */
  private finish(handoff: RelayHandoff): void {
    this.endedWith = handoff.reason;
    const end = () => this.send({ type: 'end', handoffData: JSON.stringify(handoff) });
    const wait = this.sayings.end() - Date.now();
    if (wait <= 0) {
      end();
      return;
    }
    this.endTimer = setTimeout(() => {
      this.endTimer = null;
      end();
    }, wait);
  }

  /** Sends `message` after the text still held: in the order the conversation gave them. */
  private send(message: OutgoingMessage): void {
    this.flushText(false);
    this.write(message);
  }

  /** Ends the event-loop turn's window of text: the pieces held go as one message (`last` closing the agent's turn). */
  private flushText(last: boolean): void {
    if (this.textWindow === null) return;
    clearImmediate(this.textWindow);
    this.textWindow = null;
    const token = this.heldText;
    this.heldText = '';
    if (token !== '' || last) this.write({ type: 'text', token, last });
  }

  private write(message: OutgoingMessage): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private receive(data: RawData, binary: boolean): void {
    if (++this.received > this.limits.maxMessages) {
      this.refuse('too many messages');
      return;
    }
    let parsed;
    try {
      parsed = binary ? null : incomingMessage.safeParse(JSON.parse(data.toString()));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      this.logger.warn({ issues: parsed?.error.issues.slice(0, 3) }, 'relay message ignored: malformed or unknown');
      return;
    }
    this.handle(parsed.data);
  }

  private handle(message: IncomingMessage): void {
    if (message.type === 'error') {
      this.logger.warn({ description: message.description }, 'relay reported an error');
    } else if (message.type === 'setup') {
      this.setup(message.customParameters ?? {}, message.callSid);
    } else if (!this.conversation) {
      this.logger.warn({ type: message.type }, 'relay message before setup ignored');
    } else {
      void this.run(this.conversation.then((conversation) => conversation && this.deliver(conversation, message)));
    }
  }

  private setup(parameters: Record<string, string>, callSid: string): void {
    if (this.conversation) {
      this.logger.warn('second relay setup ignored');
      return;
    }
    clearTimeout(this.setupTimer);
    const callId = parameters.call_id;
    const opening = openingOf(parameters.opening);
    this.welcomeGreetingSpoken = parameters[GREETING_PARAMETER] === 'spoken';
    this.conversation = (callId && opening ? this.conversations.open(callId, callSid, this, opening) : Promise.resolve(null)).then(
      async (conversation) => {
        if (!conversation) this.refuse('no live call for this setup');
        else if (this.closed) await this.run(conversation.close('user_hangup'));
        // Not awaited: the callee may speak over the greeting, and that must reach the engine.
        else void this.run(conversation.start());
        return this.closed ? null : conversation;
      },
      (err: unknown) => {
        this.logger.error({ err, callId }, 'relay session could not open its conversation');
        this.refuse('conversation unavailable');
        return null;
      },
    );
  }

  private deliver(conversation: Conversation, message: Exclude<IncomingMessage, { type: 'setup' | 'error' }>): void {
    if (message.type === 'prompt') void this.run(conversation.userSaid(message.voicePrompt, message.last));
    else if (message.type === 'interrupt') conversation.interrupted(message.utteranceUntilInterrupt);
    else if (message.type === 'dtmf') void this.run(conversation.dtmf(message.digit));
    else {
      const event = speechEventOf(message);
      if (event) conversation.speech(event);
    }
  }

  private async run(work: Promise<unknown>): Promise<void> {
    await work.catch((err: unknown) => this.logger.error({ err }, 'conversation failed on a relay message'));
  }

  private refuse(why: string): void {
    this.logger.warn({ why }, 'relay session closed');
    this.socket.close(POLICY, why);
  }

  private onClose(): void {
    this.closed = true;
    clearTimeout(this.setupTimer);
    if (this.endTimer) clearTimeout(this.endTimer);
    if (this.textWindow) clearImmediate(this.textWindow);
    const closing = this.conversation?.then((conversation) => conversation && this.run(conversation.close(this.endedWith ?? 'user_hangup')));
    void (closing ?? Promise.resolve()).then(this.markFinished);
  }
}

/** The speech event of an `info` message Twilio sends when asked (`events` in the TwiML); null for any other. */
function speechEventOf({ name, value, ts }: Extract<IncomingMessage, { type: 'info' }>): SpeechEvent | null {
  if (name === 'tokensPlayed') return value ? { kind: 'tokensPlayed', text: value } : null;
  const kind = name === 'agentSpeaking' ? 'agentSpeaking' : name === 'clientSpeaking' ? 'calleeSpeaking' : null;
  if (!kind || (value !== 'on' && value !== 'off')) return null;
  return { kind, on: value === 'on', at: ts === undefined ? Date.now() : Number(ts) };
}
