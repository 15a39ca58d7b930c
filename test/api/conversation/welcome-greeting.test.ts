import { CALL_ANSWERED_NOTE } from '../../../src/services/conversation/chat-history';
import { CALLEE_PERSONA_INTRO } from '../../../src/services/conversation/simulated-callee';
import { FakeLlm, type RecordedRequest } from '../../support/fake-llm';
import { FakeRelay, parametersIn, type RelayTarget, sessionTokenIn } from '../../support/fake-relay';
import { type FakeTwilio, TWILIO_TOKEN as TOKEN } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { gqlData } from '../graphql/graphql-client';
import { answeredOnTwilio, twilioConversations } from './support';

// An agent's fixed welcome_greeting (docs/agents.md): on Twilio, said by ConversationRelay
// (`welcomeGreeting`) with no model request; on the simulated provider, the same first turn.

const GREETING = 'Hi {{firstname}}, this is Ava from Acme, calling {{to}}.';
const SAID = 'Hi Ada, this is Ava from Acme, calling +14155550123.';

describe('welcome_greeting on a Twilio call', () => {
  let calls: FakeTwilio;
  let llm: FakeLlm;
  let t: TestApp;
  let a: Tenant;
  let target: RelayTarget;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ twilio: calls, llm, t, target, close } = await twilioConversations());
    a = await tenant(t, 'A');
  });
  afterAll(() => close());

  const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));
  const agentWith = async (fields: Record<string, unknown>) => okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Greeter', prompt: 'You are Ava.', ...fields } }));

  /** A call of `agentId` placed at the fake Twilio and answered. */
  const answered = (agentId: string) => answeredOnTwilio(t, calls, a.key, { ai_agent_id: agentId, call_from: FROM, call_to: '+14155550123', dynamic_variables: [{ name: 'firstname', value: 'Ada' }] });

  /** The relay as Twilio opens it for `twiml`, its setup carrying the TwiML's parameters. */
  async function relayOf(call: { id: string; call_sid: string; twiml: string }) {
    const relay = await FakeRelay.connect(target, TOKEN, sessionTokenIn(call.twiml));
    relay.setup(call.id, call.call_sid, parametersIn(call.twiml));
    return relay;
  }

  it('is an agent field of REST and GraphQL, validated, and cleared with null', async () => {
    const agent = await agentWith({ welcome_greeting: GREETING });
    expect(agent.welcome_greeting).toBe(GREETING);
    expect((await agentWith({})).welcome_greeting).toBeNull();
    const read = await gqlData(t, 'query($id: ID!) { aiAgent(id: $id) { welcomeGreeting } }', { id: agent.id }, a.key);
    expect(read).toEqual({ aiAgent: { welcomeGreeting: GREETING } });
    const tooLong = await t.request('PATCH', `/v1/ai-agent/${agent.id}`, { token: a.key, body: { welcome_greeting: 'x'.repeat(1001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.data).toEqual([{ field: 'welcome_greeting', message: 'Must be at most 1000 characters' }]);
    expect(okData(await t.request('PATCH', `/v1/ai-agent/${agent.id}`, { token: a.key, body: { welcome_greeting: null } })).welcome_greeting).toBeNull();
  });

  it("is Twilio's welcomeGreeting, filled; stored as the first agent turn without a model request; the model sees it", async () => {
    const agent = await agentWith({ welcome_greeting: GREETING });
    const call = await answered(agent.id);
    expect(call.twiml).toContain(`welcomeGreeting="${SAID}"`);
    const before = llm.requests.length;
    const relay = await relayOf(call);
    await waitFor('the greeting stored', async () => ((await read(call.id)).transcript === `Agent: ${SAID}` ? true : undefined));
    expect(llm.requests).toHaveLength(before);
    llm.reply({ text: 'It is about your renewal.' });
    relay.prompt('What is this about?');
    // The service sent nothing before this answer: Twilio said the greeting.
    expect(await relay.turn()).toMatchObject({ text: 'It is about your renewal.', others: [] });
    expect(
      relay.received
        .filter((m) => m.type === 'text')
        .map((m) => m.token)
        .join(''),
    ).toBe('It is about your renewal.');
    expect(llm.conversationRequests().at(-1)!.messages.slice(1)).toEqual([
      { role: 'user', content: CALL_ANSWERED_NOTE },
      { role: 'assistant', content: SAID },
      { role: 'user', content: 'What is this about?' },
    ]);
    relay.close();
  });

  it('is said over the websocket after an opening disclosure, which stays first', async () => {
    const agent = await agentWith({ welcome_greeting: GREETING, opening_disclosure: 'This call is recorded.' });
    const call = await answered(agent.id);
    expect(call.twiml).not.toContain('welcomeGreeting');
    const relay = await relayOf(call);
    expect(await relay.next()).toEqual({ type: 'text', token: 'This call is recorded.', last: true, interruptible: false, preemptible: false });
    expect(await relay.next()).toEqual({ type: 'text', token: SAID, last: true });
    await waitFor('both turns stored', async () => ((await read(call.id)).transcript === `Agent: This call is recorded.\nAgent: ${SAID}` ? true : undefined));
    relay.close();
  });
});

describe('welcome_greeting on a simulated call', () => {
  let llm: FakeLlm;
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    llm = await FakeLlm.start();
    t = await startTestApp({ SIM_RING_MS: '0', SIM_TALK_MS: '600000', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', SIM_CALLEE_TURNS: '1' });
    a = await tenant(t, 'A');
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  const isCallee = (r: RecordedRequest) => String(r.messages[0]?.content ?? '').startsWith(CALLEE_PERSONA_INTRO);

  it('is the first agent turn the simulated callee hears, and the model answers only after it', async () => {
    llm.fallback = (r) => (r.response_format ? { json: {} } : isCallee(r) ? { text: 'Who is this?' } : { text: 'About your renewal.' });
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Ava', prompt: 'You are Ava, greeting Ada.', welcome_greeting: GREETING } }));
    const made = okData(
      await t.request('POST', '/v1/calls/make-call', {
        token: a.key,
        body: { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550123', dynamic_variables: [{ name: 'firstname', value: 'Ada' }] },
      }),
    );
    const call = await waitFor('the simulated call to end', async () => {
      const got = okData(await t.request('GET', `/v1/calls/${made.id}`, { token: a.key }));
      return got.call_status === 'completed' ? got : undefined;
    });
    expect(call.transcript_object.turns.map((turn: { role: string; text: string }) => [turn.role, turn.text])).toEqual([
      ['agent', SAID],
      ['user', 'Who is this?'],
      ['agent', 'About your renewal.'],
    ]);
    expect(llm.requests.find(isCallee)!.messages.at(-1)).toEqual({ role: 'user', content: SAID });
    const agentRequests = llm.requests.filter((r) => !isCallee(r) && !r.response_format && String(r.messages[0].content).includes('greeting Ada'));
    expect(agentRequests).toHaveLength(1);
  });
});
