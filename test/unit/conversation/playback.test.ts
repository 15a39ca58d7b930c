import { REMINDER } from '../../../src/services/conversation/engine';
import { speakingMs } from '../../../src/services/conversation/playback';
import { PLAYBACK_REPORT_GRACE_MS } from '../../../src/services/conversation/silence';
import { FakeTimers } from '../../support/clock';
import { FakeLlm } from '../../support/fake-llm';
import { waitFor } from '../../support/wait';
import { agent, engineOn } from '../../api/conversation/support';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await FakeLlm.start();
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
  llm.fallback = {};
});

/** About 13 seconds of speech at the default voice speed, as in the outside review. */
const LONG =
  'Thanks for taking my call. I am calling about your Gold plan, which renews next Friday at the same price as last year, ' +
  'and I would like to tell you about two new options that could save you money.';
const SILENCE = { reminderMs: { from: 3000, to: 3000 }, maxMs: 6000 };
const reminders = () => llm.requests.filter((r) => r.messages.at(-1)?.content === REMINDER).length;
const reminded = (n: number) => waitFor(`${n} reminders`, async () => (reminders() >= n ? true : undefined), 5000, 5);

describe("silence, timed from the end of the agent's voice", () => {
  it('counts from the estimated end of a long answer, not from the end of its stream', async () => {
    const clock = new FakeTimers();
    llm.reply({ text: LONG });
    llm.fallback = { text: 'Are you still there?' };
    const { engine, sink } = engineOn(llm, { clock, silence: SILENCE });
    await engine.start();
    const spoken = speakingMs(LONG);
    expect(spoken).toBeGreaterThan(12_000);
    // The outside review's call: a reminder 3.2 s after the stream ended, the hang-up at 8.1 s.
    clock.advance(8100);
    expect(reminders()).toBe(0);
    expect(sink.ending()).toBeUndefined();
    clock.advance(spoken + 3000 - 8100 - 100);
    expect(reminders()).toBe(0);
    clock.advance(200);
    await reminded(1);
    // The maximum counts from the same end of playback; reminders do not restart it.
    clock.advance(spoken + 6000 - (spoken + 3100) - 100);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.ending()).toBeUndefined();
    clock.advance(200);
    await waitFor('the hang-up', async () => sink.ending(), 5000, 5);
    expect(sink.events.at(-1)).toEqual({ type: 'end', reason: 'max_silence' });
  });

  it('estimates a faster voice as shorter (voice_speed)', async () => {
    const clock = new FakeTimers();
    llm.reply({ text: LONG });
    const { engine } = engineOn(llm, { clock, silence: SILENCE, agent: agent({ voiceSpeed: 100 }) });
    await engine.start();
    const spoken = speakingMs(LONG, 100);
    expect(spoken).toBeLessThan(speakingMs(LONG) * 0.7);
    clock.advance(spoken + 2900);
    expect(reminders()).toBe(0);
    clock.advance(200);
    await reminded(1);
  });

  it("with Twilio's events, waits while the agent speaks and counts from agentSpeaking off", async () => {
    const clock = new FakeTimers();
    llm.reply({ text: LONG });
    llm.fallback = { text: 'Are you still there?' };
    const { engine } = engineOn(llm, { clock, silence: SILENCE });
    await engine.start();
    engine.speech({ kind: 'agentSpeaking', on: true, at: clock.now() });
    // Twilio's voice is slower than the estimate: nothing is due while it plays.
    clock.advance(speakingMs(LONG) + 6000);
    expect(reminders()).toBe(0);
    engine.speech({ kind: 'agentSpeaking', on: false, at: clock.now() });
    clock.advance(2900);
    expect(reminders()).toBe(0);
    clock.advance(200);
    await reminded(1);
  });

  it("with Twilio's events, counts from the end of a grace past the estimate when agentSpeaking off never comes", async () => {
    const clock = new FakeTimers();
    llm.reply({ text: LONG });
    llm.fallback = { text: 'Are you still there?' };
    const { engine, sink } = engineOn(llm, { clock, silence: SILENCE });
    await engine.start();
    engine.speech({ kind: 'agentSpeaking', on: true, at: clock.now() });
    const reportDue = speakingMs(LONG) + PLAYBACK_REPORT_GRACE_MS;
    clock.advance(reportDue + 2900);
    expect(reminders()).toBe(0);
    clock.advance(200);
    await reminded(1);
    clock.advance(6000 - 3100 - 100);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.ending()).toBeUndefined();
    clock.advance(200);
    await waitFor('the hang-up', async () => sink.ending(), 5000, 5);
    expect(sink.events.at(-1)).toEqual({ type: 'end', reason: 'max_silence' });
  });

  it("with Twilio's events, counts from a playback that ended before the estimate", async () => {
    const clock = new FakeTimers();
    llm.reply({ text: LONG });
    const { engine } = engineOn(llm, { clock, silence: SILENCE });
    await engine.start();
    engine.speech({ kind: 'agentSpeaking', on: true, at: clock.now() });
    clock.advance(2000);
    engine.speech({ kind: 'agentSpeaking', on: false, at: clock.now() });
    clock.advance(3100);
    await reminded(1);
  });

  it('does not remind a callee while they speak, and counts again from a sound no utterance followed', async () => {
    const clock = new FakeTimers();
    const { engine } = engineOn(llm, { clock, silence: SILENCE, agent: agent({ whoTalksFirst: 'user' }) });
    await engine.start();
    clock.advance(1000);
    engine.speech({ kind: 'calleeSpeaking', on: true, at: clock.now() });
    clock.advance(10_000);
    expect(reminders()).toBe(0);
    engine.speech({ kind: 'calleeSpeaking', on: false, at: clock.now() });
    clock.advance(2900);
    expect(reminders()).toBe(0);
    clock.advance(200);
    await reminded(1);
  });
});

describe('what the callee heard (tokensPlayed)', () => {
  it("keeps, when the session ends, only what was played of the agent's last turn", async () => {
    llm.reply({ text: LONG });
    const { engine, transcript } = engineOn(llm);
    await engine.start();
    engine.speech({ kind: 'tokensPlayed', text: 'Thanks for taking my call.' });
    engine.speech({ kind: 'tokensPlayed', text: ' I am calling about your Gold plan,' });
    await engine.close('user_hangup');
    expect(transcript()).toEqual([expect.objectContaining({ role: 'agent', text: 'Thanks for taking my call. I am calling about your Gold plan,' })]);
  });

  it('keeps turns whole that were played whole, and leaves out a turn nobody heard', async () => {
    llm.reply({ text: 'Hello Ada.' }, { text: 'Your plan renews on Friday.' }, { text: 'Shall I go on?' });
    const { engine, transcript } = engineOn(llm, { agent: agent({ openingDisclosure: 'This call is recorded.' }) });
    await engine.start();
    engine.speech({ kind: 'tokensPlayed', text: 'This call is recorded.' });
    engine.speech({ kind: 'tokensPlayed', text: 'Hello Ada.' });
    await engine.userSaid('Hi, what is it about?', true);
    engine.speech({ kind: 'tokensPlayed', text: 'Your plan renews on Friday.' });
    await engine.silence();
    await engine.close('user_hangup');
    expect(transcript().map((t) => [t.role, t.text])).toEqual([
      ['agent', 'This call is recorded.'],
      ['agent', 'Hello Ada.'],
      ['user', 'Hi, what is it about?'],
      ['agent', 'Your plan renews on Friday.'],
    ]);
  });

  it('cuts a greeting played only in part before a voicemail message, and keeps the message', async () => {
    llm.reply({ text: 'Hello Ada, I am calling about your plan renewal and a special offer today.', chunkDelayMs: 30 });
    const { engine, sink, transcript } = engineOn(llm);
    void engine.start();
    await waitFor('the first tokens', async () => (sink.events.length >= 3 ? true : undefined));
    engine.speech({ kind: 'tokensPlayed', text: 'Hello Ada, ' });
    await engine.answeringMachine('greeting', null);
    await engine.answeringMachine('message_end', 'Please call Acme back.');
    engine.speech({ kind: 'tokensPlayed', text: 'Please call' });
    engine.speech({ kind: 'tokensPlayed', text: ' Acme back.' });
    await engine.close('voicemail_reached');
    expect(transcript().map((t) => t.text)).toEqual(['Hello Ada,', 'Please call Acme back.']);
  });

  it("asks the model nothing for a machine's greeting once told it is one, then leaves the message and ends", async () => {
    llm.reply({ text: 'Hello Ada.' });
    const { engine, sink } = engineOn(llm);
    await engine.start();
    await engine.answeringMachine('greeting', null);
    await engine.userSaid("Hi, you've reached Ada, leave a message after the tone.", true);
    expect(llm.requests).toHaveLength(1);
    await engine.answeringMachine('message_end', 'Please call Acme back.');
    expect(llm.requests).toHaveLength(1);
    expect(sink.turns()).toEqual(['Hello Ada.']);
    expect(sink.events.filter((e) => e.type !== 'text')).toEqual([
      { type: 'say', text: 'Please call Acme back.' },
      { type: 'end', reason: 'voicemail_reached' },
    ]);
  });

  it('changes nothing when the transport reports no playback', async () => {
    llm.reply({ text: LONG });
    const { engine, transcript } = engineOn(llm);
    await engine.start();
    await engine.close('user_hangup');
    expect(transcript()[0].text).toBe(LONG);
  });
});

describe('the latency of a turn, and the tokens of the model', () => {
  it("breaks an answer's latency down and adds the voice-to-voice latency Twilio reports, stored with the next write", async () => {
    llm.reply({ text: 'Hi, this is Ava.', firstTokenDelayMs: 150, usage: { prompt_tokens: 120, completion_tokens: 6 } });
    const { engine, transcript, usage, saves } = engineOn(llm, { agent: agent({ whoTalksFirst: 'user' }) });
    await engine.start();
    const stopped = Date.now();
    engine.speech({ kind: 'calleeSpeaking', on: false, at: stopped });
    await engine.userSaid('Hello, who is this?', true);
    const answer = transcript()[1];
    expect(answer.latency!.llmFirstTokenMs).toBeGreaterThanOrEqual(150);
    expect(answer.latency!.firstTextMs).toBeGreaterThanOrEqual(answer.latency!.llmFirstTokenMs!);
    expect(answer.latency!.firstTextMs).toBe(answer.latencyMs);
    expect(answer.latency!.voiceToVoiceMs).toBeUndefined();
    expect(usage()).toEqual({ input: 120, output: 6 });
    const written = saves();
    engine.speech({ kind: 'agentSpeaking', on: true, at: stopped + 900 });
    expect(saves()).toBe(written);
    await engine.close('user_hangup');
    expect(transcript()[1].latency).toEqual({ ...answer.latency, voiceToVoiceMs: 900 });
  });

  it('measures voice to voice on the turn in flight, gives a greeting no latency_ms, and stores tokens no turn carried', async () => {
    llm.reply({ text: 'Hello Ada.', usage: { prompt_tokens: 100, completion_tokens: 3 } });
    const { engine, sink, transcript, usage } = engineOn(llm);
    await engine.start();
    expect(transcript()[0]).toMatchObject({ latency: { llmFirstTokenMs: expect.any(Number), firstTextMs: expect.any(Number) } });
    expect(transcript()[0].latencyMs).toBeUndefined();
    llm.reply({ text: 'Sure, one moment please while I look.', chunkDelayMs: 40, usage: { prompt_tokens: 110, completion_tokens: 9 } });
    engine.speech({ kind: 'calleeSpeaking', on: false, at: 1_000 });
    const answering = engine.userSaid('Can you check my bill?', true);
    await waitFor('the first tokens', async () => (sink.events.length >= 4 ? true : undefined));
    engine.speech({ kind: 'agentSpeaking', on: true, at: 1_700 });
    await answering;
    expect(transcript()[2].latency!.voiceToVoiceMs).toBe(700);
    llm.reply({ toolCalls: [{ name: 'end_call', arguments: { reason: 'done' } }], usage: { prompt_tokens: 130, completion_tokens: 12 } });
    await engine.userSaid('Thanks, bye.', true);
    expect(usage()).toEqual({ input: 210, output: 12 });
    await engine.close('agent_hangup');
    expect(usage()).toEqual({ input: 340, output: 24 });
  });
});
