import { gqlData } from '../graphql/graphql-client';
import { FakeLlm } from '../../support/fake-llm';
import { FakeRelay, type RelayTarget, sessionTokenIn } from '../../support/fake-relay';
import { type FakeTwilio, TWILIO_TOKEN as TOKEN } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { answeredOnTwilio, twilioConversations } from './support';
import type { TestApp } from '../../support/harness';
import { silentWav } from '../../../src/services/telephony/wav';
import { waitFor } from '../../support/wait';

let env: Awaited<ReturnType<typeof twilioConversations>>;
let fake: FakeTwilio;
let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let target: RelayTarget;

beforeAll(async () => {
  env = await twilioConversations({ CALL_PRICE_PER_MINUTE: '0.6', RECORDING_PRICE_PER_MINUTE: '0.02', LLM_PRICE_INPUT_PER_MTOK: '2.5', LLM_PRICE_OUTPUT_PER_MTOK: '10' });
  ({ twilio: fake, llm, t, target } = env);
  a = await tenant(t, 'A');
});
afterAll(() => env.close());

const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

/** A call of an agent recording it, placed at the fake Twilio and answered, its relay connected as Twilio would. */
async function connected(greeting: string) {
  const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Ava', prompt: 'You are Ava from Acme.', call_recording: 'mono' } }));
  const call = await answeredOnTwilio(t, fake, a.key, { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550123' });
  expect(call.twiml).toContain('events="speaker-events tokens-played"');
  llm.reply({ text: greeting, usage: { prompt_tokens: 1500, completion_tokens: 400 } });
  const relay = await FakeRelay.connect(target, TOKEN, sessionTokenIn(call.twiml));
  relay.setup(call.id, call.call_sid);
  expect((await relay.turn()).text).toBe(greeting);
  return { call, relay };
}

const ANSWER = 'Your Gold plan renews on Friday at the same price, and there are two new options that could save you money.';

describe('a Twilio call with playback events', () => {
  it("stores what the callee heard, each answer's latency breakdown with its voice-to-voice latency, and the cost by part", async () => {
    const { call, relay } = await connected('Hello, this is Ava from Acme.');
    relay.speaking('agent', true);
    relay.played('Hello, this is Ava from Acme.');
    relay.speaking('agent', false);
    const spoke = Date.now();
    relay.speaking('client', true, spoke - 1500);
    relay.speaking('client', false, spoke);
    llm.reply({ text: ANSWER, firstTokenDelayMs: 120, usage: { prompt_tokens: 2500, completion_tokens: 600 } });
    relay.prompt('What is this about?');
    expect((await relay.turn()).text).toBe(ANSWER);
    relay.speaking('agent', true, spoke + 950);
    relay.played('Your Gold plan renews on Friday');
    relay.played(' at the same price,');
    // The callee hangs up while the agent speaks: Twilio closes the session.
    relay.close();
    await waitFor('the transcript cut to what was played', async () => ((await read(call.id)).transcript.endsWith('at the same price,') ? true : undefined));

    const stored = await read(call.id);
    expect(stored.transcript).toBe('Agent: Hello, this is Ava from Acme.\nUser: What is this about?\nAgent: Your Gold plan renews on Friday at the same price,');
    const [greeting, , answer] = stored.transcript_object.turns;
    expect(greeting.latency_ms).toBeUndefined();
    expect(greeting.latency).toEqual({ llm_first_token_ms: expect.any(Number), first_text_ms: expect.any(Number) });
    expect(answer.latency).toEqual({ llm_first_token_ms: expect.any(Number), first_text_ms: answer.latency_ms, voice_to_voice_ms: 950 });
    expect(answer.latency.llm_first_token_ms).toBeGreaterThanOrEqual(120);
    expect(answer.latency_ms).toBeGreaterThanOrEqual(answer.latency.llm_first_token_ms);
    // The call's latency is the voice-to-voice one when Twilio reported any.
    expect(stored.latency).toBe(950);

    const hungUp = await fake.calleeHangsUp(t.url, call.id, 90);
    expect([hungUp.action.status, hungUp.status.status]).toEqual([200, 200]);
    await fake.completeRecording(t.url, call.id, silentWav(1), 90);
    // 90 s at 0.6 a minute; 4,000 tokens read at 2.5 and 1,000 written at 10 a million; 90 s recorded at 0.02 a minute.
    const breakdown = { telephony: 0.9, llm: 0.02, recording: 0.03, total: 0.95 };
    const ended = await read(call.id);
    expect(ended).toMatchObject({ cost: 0.95, cost_breakdown: breakdown, price_unit: 'USD' });

    const { call: viewed } = await gqlData(
      t,
      `query($id: ID!) { call(id: $id) { cost costBreakdown { telephony llm recording total } latency transcriptTurns { latencyMs latency { llmFirstTokenMs firstTextMs voiceToVoiceMs } } } }`,
      { id: call.id },
      a.key,
    );
    expect(viewed).toMatchObject({ cost: 0.95, costBreakdown: breakdown, latency: 950 });
    expect(viewed.transcriptTurns.map((turn: { latency: unknown }) => turn.latency)).toEqual([
      { llmFirstTokenMs: greeting.latency.llm_first_token_ms, firstTextMs: greeting.latency.first_text_ms, voiceToVoiceMs: null },
      null,
      { llmFirstTokenMs: answer.latency.llm_first_token_ms, firstTextMs: answer.latency_ms, voiceToVoiceMs: 950 },
    ]);
  });

  it('without playback reports, keeps every turn whole and measures latency as the service sees it', async () => {
    const { call, relay } = await connected('Hello, this is Ava.');
    llm.reply({ text: ANSWER });
    relay.prompt('What is this about?');
    expect((await relay.turn()).text).toBe(ANSWER);
    relay.close();
    await waitFor('the answer stored', async () => ((await read(call.id)).transcript_object?.turns.length === 3 ? true : undefined));
    const stored = await read(call.id);
    expect(stored.transcript_object.turns[2]).toMatchObject({ text: ANSWER, latency: { first_text_ms: stored.transcript_object.turns[2].latency_ms } });
    expect(stored.transcript_object.turns[2].latency.voice_to_voice_ms).toBeUndefined();
    expect(stored.latency).toBe(stored.transcript_object.turns[2].latency_ms);
  });
});
