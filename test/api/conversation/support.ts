import { type CallFacts, engineSettingsOf, type ConversationAgent } from '../../../src/services/conversation/agent-settings';
import type { OptOutList } from '../../../src/services/conversation/call-tools';
import type { ConversationEndReason, ConversationSink } from '../../../src/services/conversation/conversation';
import { ConversationEngine, type TurnRecord } from '../../../src/services/conversation/engine';
import { OpenAiCompatibleModel, type TokenUsage } from '../../../src/services/conversation/language-model';
import type { Resumption } from '../../../src/services/conversation/resumption';
import type { FakeTimers } from '../../support/clock';
import { FakeLlm } from '../../support/fake-llm';
import type { RelayTarget } from '../../support/fake-relay';
import { type FakeTwilio, fakeTwilio, TWILIO_PUBLIC, TWILIO_TOKEN, twilioProviderEnv } from '../../support/fake-twilio';
import { okData } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/** Everything a transport would have been told, in order. */
export class RecordingSink implements ConversationSink {
  readonly events: (
    | { type: 'text'; token: string; last: boolean }
    | { type: 'say'; text: string }
    | { type: 'end'; reason: ConversationEndReason }
    | { type: 'transfer'; number: string; summary: string | null }
    | { type: 'play'; url: string }
    | { type: 'digits'; digits: string }
    | { type: 'language'; code: string }
  )[] = [];
  /** Set to play a transport that says the welcome greeting itself (Twilio's `welcomeGreeting`). */
  welcomeGreetingSpoken = false;

  text(token: string, last: boolean): void {
    this.events.push({ type: 'text', token, last });
  }
  say(text: string): void {
    this.events.push({ type: 'say', text });
  }
  end(reason: ConversationEndReason): void {
    this.events.push({ type: 'end', reason });
  }
  transfer(number: string, summary: string | null): void {
    this.events.push({ type: 'transfer', number, summary });
  }
  play(url: string): void {
    this.events.push({ type: 'play', url });
  }
  sendDigits(digits: string): void {
    this.events.push({ type: 'digits', digits });
  }
  language(code: string): void {
    this.events.push({ type: 'language', code });
  }

  /** The agent's turns as the transport would speak them, joined by the `last` marks. */
  turns(): string[] {
    const turns: string[] = [];
    let current = '';
    for (const e of this.events) {
      if (e.type !== 'text') continue;
      current += e.token;
      if (e.last) {
        turns.push(current);
        current = '';
      }
    }
    return turns;
  }

  ending(): { type: string } | undefined {
    return this.events.find((e) => e.type === 'end' || e.type === 'transfer');
  }
}

export const agent = (overrides: Partial<ConversationAgent> = {}): ConversationAgent => ({
  prompt: 'You are Ava from Acme. Remind {{firstname}} about the {{plan}} renewal.',
  language: 'en-US',
  startingState: '',
  whoTalksFirst: 'agent',
  llmTemperature: 30,
  reminderFrequencyFrom: 0,
  reminderFrequencyTo: 0,
  maxSilenceDuration: 0,
  agentFlow: {},
  agentDynamicVariables: {},
  openingDisclosure: '',
  welcomeGreeting: null,
  responsiveness: 50,
  transferMode: 'cold',
  holdAudioUrl: null,
  voiceSpeed: 50,
  ...overrides,
});

/**
 * An engine on the fake server, with a sink and a transcript kept in memory. The model's
 * time limit to its first token is generous unless a test sets one (a loaded machine can take
 * a second or two for a worker's first request).
 */
/** A do-not-call list that only counts what `do_not_call` asked of it, and answers `outcome` (or throws it). */
export class CountingOptOut implements OptOutList {
  asked = 0;
  outcome: 'listed' | 'withheld' | Error = 'listed';

  async optOut(): Promise<'listed' | 'withheld'> {
    this.asked++;
    if (this.outcome instanceof Error) throw this.outcome;
    return this.outcome;
  }
}

/** The call of `engineOn`'s engines: an outgoing call with the callee's first name and plan. */
export const CALL: CallFacts = {
  callFrom: '+14155552671',
  callTo: '+14155550123',
  callDirection: 'outgoing',
  agentDynamicVariables: [
    { name: 'firstname', value: 'Ada' },
    { name: 'plan', value: 'Gold' },
  ],
};

export function engineOn(
  llm: FakeLlm,
  options: {
    agent?: ConversationAgent;
    call?: Partial<CallFacts>;
    timeoutMs?: number;
    fallbackModel?: string;
    interTokenTimeoutMs?: number;
    silence?: { reminderMs: { from: number; to: number } | null; maxMs: number };
    resumption?: Resumption;
    /** The engine's clock and timers (its silence watch): a fake clock the test moves. */
    clock?: FakeTimers;
  } = {},
) {
  const sink = new RecordingSink();
  let transcript: TurnRecord[] = [];
  let usage: TokenUsage = { input: 0, output: 0 };
  let saves = 0;
  const optOut = new CountingOptOut();
  const settings = engineSettingsOf(options.agent ?? agent(), { ...CALL, ...options.call }, { optOut });
  const model = new OpenAiCompatibleModel({
    baseUrl: llm.baseUrl,
    apiKey: undefined,
    model: 'fake-model',
    fallbackModel: options.fallbackModel,
    timeoutMs: options.timeoutMs ?? 10_000,
    interTokenTimeoutMs: options.interTokenTimeoutMs,
    streamUsage: true,
  });
  const recorder = {
    save: (turns: readonly TurnRecord[], used: TokenUsage) => {
      transcript = turns.map((t) => ({ ...t }));
      usage = used;
      saves++;
    },
    settled: async () => undefined,
  };
  const clock = options.clock ? { now: options.clock.now, timers: options.clock } : {};
  const engine = new ConversationEngine(
    { ...settings, ...(options.silence ? { silence: options.silence } : {}), ...(options.resumption ? { resumption: options.resumption } : {}) },
    { model, sink, recorder, ...clock },
  );
  return {
    engine,
    sink,
    optOut,
    transcript: () => transcript,
    /** The model's tokens as last saved with the transcript, and how many saves there were. */
    usage: () => usage,
    saves: () => saves,
    /** Waits until the sink has closed `n` agent turns. */
    turnsSpoken: (n: number) => waitFor(`${n} agent turns`, async () => (sink.turns().length >= n ? sink.turns() : undefined), 5000, 5),
  };
}

/**
 * A call placed with make-call (`body`) at the fake Twilio and answered there, with the TwiML
 * Twilio got for it.
 */
export async function answeredOnTwilio(t: TestApp, twilio: FakeTwilio, key: string, body: Record<string, unknown>) {
  const made = okData(await t.request('POST', '/v1/calls/make-call', { token: key, body }));
  const call = await waitFor('the call to reach Twilio', async () => {
    const c = okData(await t.request('GET', `/v1/calls/${made.id}`, { token: key }));
    return c.call_sid ? c : undefined;
  });
  expect((await twilio.answer(t.url, call.id)).status).toBe(200);
  return { id: call.id as string, call_sid: call.call_sid as string, twiml: twilio.created(call.id).form.get('Twiml')! };
}

/** An app on the fake Twilio with its agents on the fake model, and where its relay is reached: what the relay suites run. */
export async function twilioConversations(env: Record<string, string> = {}): Promise<{ twilio: FakeTwilio; llm: FakeLlm; t: TestApp; target: RelayTarget; close(): Promise<void> }> {
  const twilio = await fakeTwilio();
  const llm = await FakeLlm.start();
  // The relay suites script the conversation's replies; the analyses of their ended calls are answered apart.
  llm.analysis = { json: { summary: 'A call.', sentiment: 'neutral', task_status: 'completed', task_feedback: 'Done.', outcomes: {} } };
  const t = await startTestApp({ ...twilioProviderEnv(twilio), LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', ...env });
  const close = async () => {
    await t.close();
    await llm.close();
    await twilio.close();
  };
  return { twilio, llm, t, target: { url: t.url, publicBaseUrl: TWILIO_PUBLIC, authToken: TWILIO_TOKEN }, close };
}
