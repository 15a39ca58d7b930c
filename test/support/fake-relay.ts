import twilio from 'twilio';
import WebSocket from 'ws';

export const RELAY_PATH = '/v1/telephony/twilio/relay';

/** A message the service sent to the relay. */
export type RelayOut = { type: string; [field: string]: unknown };

export interface RelayTarget {
  /** Where the service listens (http://127.0.0.1:port). */
  url: string;
  /** PUBLIC_BASE_URL: Twilio signs the public wss URL, not the local one. */
  publicBaseUrl: string;
  authToken: string;
}

/**
 * A stand-in for Twilio's ConversationRelay: opens the websocket with a signed handshake
 * (`X-Twilio-Signature` of the public wss URL, as Twilio computes it), sends Twilio's
 * messages (setup, prompt, interrupt, dtmf, info, error) and collects what the service sends.
 * Waits are on messages, never on sleeps.
 */
export class FakeRelay {
  readonly received: RelayOut[] = [];
  /** When each of `received` arrived (ms, `performance.timeOrigin + performance.now()`). */
  readonly receivedAt: number[] = [];
  private waiters: (() => void)[] = [];
  private cursor = 0;
  closeCode: number | null = null;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.receivedAt.push(performance.timeOrigin + performance.now());
      this.received.push(JSON.parse(data.toString()) as RelayOut);
      this.wake();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }

  /**
   * Connects as Twilio would to the session URL of `token` (the `token` parameter of the
   * TwiML's relay URL: `sessionTokenIn`; none: the bare path); `signWith` another auth token
   * (or null: no header) to forge.
   */
  static connect(target: RelayTarget, signWith: string | null = target.authToken, token?: string): Promise<FakeRelay> {
    const path = token === undefined ? RELAY_PATH : `${RELAY_PATH}?token=${encodeURIComponent(token)}`;
    const signed = `${target.publicBaseUrl.replace(/^http/, 'ws')}${path}`;
    const headers = signWith === null ? {} : { 'x-twilio-signature': twilio.getExpectedTwilioSignature(signWith, signed, {}) };
    const socket = new WebSocket(`${target.url.replace(/^http/, 'ws')}${path}`, { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new FakeRelay(socket)));
      socket.once('unexpected-response', (_req, res) => reject(new RefusedHandshake(res.statusCode ?? 0)));
      socket.once('error', reject);
    });
  }

  /** Sends a message: an object as JSON text, a string as is, a Buffer as a binary frame. */
  send(message: unknown): void {
    this.socket.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
  }

  /**
   * Runs the `<ConversationRelay>` of `twiml` as Twilio does: connects to its URL (its session
   * token) and sends `setup` with the `<Parameter>`s it names as `customParameters`.
   */
  static async ofTwiml(target: RelayTarget, twiml: string, callSid: string): Promise<FakeRelay> {
    const relay = await FakeRelay.connect(target, target.authToken, sessionTokenIn(twiml));
    const parameters = parametersIn(twiml);
    relay.setup(parameters.call_id ?? '', callSid, parameters);
    return relay;
  }

  /** Twilio's `setup`; `customParameters` are the TwiML's `<Parameter>`s (`parametersIn`), default only the call id. */
  setup(callId: string, callSid: string, customParameters: Record<string, string> = { call_id: callId }): void {
    this.send({ type: 'setup', sessionId: 'VX00000000000000000000000000000001', callSid, from: '+14155552671', to: '+14155550123', direction: 'outbound-api', customParameters });
  }

  prompt(voicePrompt: string, last = true): void {
    this.send({ type: 'prompt', voicePrompt, lang: 'en-US', last });
  }

  interrupt(utteranceUntilInterrupt: string, durationUntilInterruptMs = 460): void {
    this.send({ type: 'interrupt', utteranceUntilInterrupt, durationUntilInterruptMs });
  }

  dtmf(digit: string): void {
    this.send({ type: 'dtmf', digit });
  }

  /**
   * Whose voice starts or stops, as Twilio reports it when the TwiML's `events` ask for
   * `speaker-events`: an `info` message `agentSpeaking` or `clientSpeaking`, `on` or `off`,
   * with `ts` (ms since the epoch).
   */
  speaking(who: 'agent' | 'client', on: boolean, ts = Date.now()): void {
    this.send({ type: 'info', name: who === 'agent' ? 'agentSpeaking' : 'clientSpeaking', value: on ? 'on' : 'off', ts });
  }

  /** The agent's text just played, as Twilio reports it for `tokens-played`: an `info` message `tokensPlayed`. */
  played(text: string): void {
    this.send({ type: 'info', name: 'tokensPlayed', value: text });
  }

  /** The next message the service sends, past those already read. */
  async next(timeoutMs = 10_000): Promise<RelayOut> {
    const deadline = Date.now() + timeoutMs;
    while (this.cursor >= this.received.length) {
      if (this.closeCode !== null) throw new Error(`relay socket closed (${this.closeCode}) while waiting for a message`);
      if (Date.now() > deadline) throw new Error('timed out waiting for a relay message');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received[this.cursor++];
  }

  /**
   * The agent's next turn: the text tokens up to the one with `last` (or an `end`), joined;
   * other messages in `others`; `firstAt`, when its first token arrived (see `receivedAt`).
   */
  async turn(timeoutMs = 10_000): Promise<{ text: string; tokens: number; others: RelayOut[]; firstAt: number | null }> {
    let text = '';
    let tokens = 0;
    let firstAt: number | null = null;
    const others: RelayOut[] = [];
    for (;;) {
      const message = await this.next(timeoutMs);
      if (message.type !== 'text') {
        others.push(message);
        if (message.type === 'end') return { text, tokens, others, firstAt };
        continue;
      }
      firstAt ??= this.receivedAt[this.cursor - 1];
      text += message.token as string;
      tokens++;
      if (message.last) return { text, tokens, others, firstAt };
    }
  }

  /** Resolves with the close code once the service closes the socket. */
  async closed(timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the relay socket to close');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closeCode;
  }

  close(): void {
    this.socket.close(1000);
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }
}

/** The session token of the relay URL in a call's TwiML (`<ConversationRelay url="...?token=...">`). */
export function sessionTokenIn(twiml: string): string {
  const token = /<ConversationRelay [^>]*url="[^"]*\?token=([^"&]+)"/.exec(twiml)?.[1];
  if (!token) throw new Error(`no relay session token in ${twiml}`);
  return decodeURIComponent(token);
}

/** The `<Parameter>`s of a `<ConversationRelay>` TwiML, as Twilio hands them back in `setup.customParameters`. */
export function parametersIn(twiml: string): Record<string, string> {
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return Object.fromEntries([...twiml.matchAll(/<Parameter name="([^"]*)" value="([^"]*)"\/>/g)].map((m) => [unescape(m[1]), unescape(m[2])]));
}

/** The handshake was answered with an HTTP status instead of a websocket. */
export class RefusedHandshake extends Error {
  constructor(readonly status: number) {
    super(`relay handshake refused with HTTP ${status}`);
  }
}

/** Posts the relay's action callback as Twilio would, signed with `token` for the public URL. */
export async function relayEnded(target: RelayTarget, callId: string, params: Record<string, string>, token = target.authToken): Promise<{ status: number; type: string; text: string }> {
  const path = `/v1/telephony/twilio/relay-ended?call_id=${callId}`;
  const signature = twilio.getExpectedTwilioSignature(token, `${target.publicBaseUrl}${path}`, params);
  const res = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}
