import { APOLOGY, EMPTY_ANSWER_LINE } from '../../../src/services/conversation/engine';
import { answer, FLOW_ENV, flowApi, Receiver } from '../flows/support';
import { firstError, gql } from '../graphql/graphql-client';
import { FakeLlm } from '../../support/fake-llm';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

let llm: FakeLlm;
let rx: Receiver;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let agentId: string;

beforeAll(async () => {
  llm = await FakeLlm.start();
  rx = await Receiver.start();
  t = await startTestApp({ ...FLOW_ENV, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', RATE_LIMIT_MAKE_CALL: '8' });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
  const agentFlow = {
    states: [
      { name: 'greet', prompt: 'Greet {{firstname}}.', next: ['offer'] },
      { name: 'offer', prompt: 'Offer Gold.' },
    ],
  };
  agentId = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Player', prompt: 'You are Ava.', starting_state: 'greet', agent_flow: agentFlow } })).id;
});
afterAll(async () => {
  await t.close();
  await rx.close();
  await llm.close();
});

const testChat = (body: unknown, id = agentId, key = a.key) => t.request('POST', `/v1/ai-agent/${id}/test-chat`, { token: key, body });

describe('the agent playground', () => {
  it("answers the agent's next turn with its tool calls and state, placing no call", async () => {
    llm.reply({
      text: 'Hello Ada!',
      toolCalls: [
        { name: 'go_to_state', arguments: { state: 'offer' } },
        { name: 'end_call', arguments: {} },
      ],
    });
    const res = await testChat({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'agent', content: 'Hello?' },
        { role: 'user', content: 'Yes?' },
      ],
      dynamic_variables: [{ name: 'firstname', value: 'Ada' }],
    });
    expect(okData(res)).toEqual({
      reply: 'Hello Ada!',
      tool_calls: [
        { name: 'go_to_state', arguments: { state: 'offer' } },
        { name: 'end_call', arguments: {} },
      ],
      state: 'offer',
      end_reason: 'agent_hangup',
      error: null,
    });
    const sent = llm.conversationRequests().at(-1)!;
    expect(sent.messages[0].content).toContain('Current state: greet.\nGreet Ada.');
    expect(sent.messages.slice(1)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello?' },
      { role: 'user', content: 'Yes?' },
    ]);
    expect(okData(await t.request('GET', '/v1/calls', { token: a.key })).items).toHaveLength(0);
  });

  it('answers in the state asked for, over GraphQL too', async () => {
    llm.reply({ text: 'Gold is great.' });
    const res = await gql(
      t,
      'mutation($id: ID!, $input: TestAgentTurnInput!) { testAgentTurn(id: $id, input: $input) { reply toolCalls { name arguments } state } }',
      { id: agentId, input: { messages: [{ role: 'user', content: 'Tell me' }], state: 'offer' } },
      a.key,
    );
    expect(res.data).toEqual({ testAgentTurn: { reply: 'Gold is great.', toolCalls: [], state: 'offer' } });
    expect(llm.conversationRequests().at(-1)!.messages[0].content).toContain('Current state: offer.\nOffer Gold.');
  });

  it("refuses bad input with field errors, and another company's agent with 404", async () => {
    const bad = await testChat({ messages: [{ role: 'bot', content: 1 }], state: 'nowhere', extra: true });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 'error', message: 'Validation failed' });
    expect(bad.body.data.map((f: any) => f.field).sort()).toEqual(['extra', 'messages[0].content', 'messages[0].role']);
    const unknownState = await testChat({ messages: [], state: 'nowhere' });
    expect(unknownState.body.data).toEqual([{ field: 'state', message: "Must name a state of the agent's flow" }]);
    const foreign = await testChat({ messages: [] }, agentId, b.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: 'error', message: 'Not found', data: '' });
    const gqlForeign = await gql(t, 'mutation($id: ID!) { testAgentTurn(id: $id, input: { messages: [] }) { reply } }', { id: agentId }, b.key);
    expect(firstError(gqlForeign)).toEqual({ code: 'NOT_FOUND' });
  });

  it('fails as a call fails: the apology, the end with llm_error, and the reason told plainly', async () => {
    llm.reply({ status: 500 }, { status: 500 });
    const res = await testChat({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(okData(res)).toEqual({ reply: APOLOGY, tool_calls: [], state: 'greet', end_reason: 'llm_error', error: 'The language model failed (http)' });
  });

  it('is rate limited like make-call', async () => {
    llm.fallback = { text: 'Hi.' };
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await testChat({ messages: [] })).status);
    expect(statuses).toContain(429);
  });
});

describe('the playground runs what a call runs', () => {
  let c: Tenant;
  beforeAll(async () => {
    // A company of its own: these turns do not share A's make-call bucket with the limit test above.
    c = await tenant(t, 'C', '+14155552673');
  });

  const agentOfC = async (fields: Record<string, unknown>) =>
    okData(await t.request('POST', '/v1/ai-agent', { token: c.key, body: { name: 'Runner', prompt: 'You are Ava.', ...fields } })).id as string;
  const turnOfC = async (id: string, body: unknown) => okData(await testChat(body, id, c.key));

  it("triggers the company's flow tools for real, over several tool rounds, and answers with the flow's result", async () => {
    rx.on('/orders', answer(200, { eta: 'Friday' }));
    const flow = await flowApi(t, c.key).create({
      variables: [{ name: 'eta', location: 'body.eta', stepId: 1, dataType: 'string' }],
      steps: [{ step_number: 1, webhook_url: `${rx.url}/orders`, webhook_method: 'POST', webhook_body: { order: '{{order}}' } }],
    });
    const id = await agentOfC({
      agent_flow: { tools: [{ name: 'order_status', description: 'Looks an order up', parameters: { type: 'object', properties: { order: { type: 'string' } } }, webhook_id: flow.id }] },
    });
    llm.reply({ text: 'Let me check.', toolCalls: [{ name: 'order_status', arguments: { order: 'A7' } }] }, { chunks: [' It ships', ' on Friday.'] });
    const turn = await turnOfC(id, { messages: [{ role: 'user', content: 'Where is order A7?' }] });
    expect(turn).toEqual({ reply: 'Let me check. It ships on Friday.', tool_calls: [{ name: 'order_status', arguments: { order: 'A7' } }], state: null, end_reason: null, error: null });
    expect(JSON.parse(rx.at('/orders')[0].body)).toEqual({ order: 'A7' });
    expect(JSON.parse(llm.conversationRequests().at(-1)!.messages.at(-1).content)).toEqual({ status: 'success', variables: { eta: 'Friday' } });
  });

  it('asks again after a passing failure, and says the fallback line for an empty answer', async () => {
    const id = await agentOfC({});
    llm.reply({ status: 503 }, { text: 'Back again.' });
    expect(await turnOfC(id, { messages: [{ role: 'user', content: 'Hello?' }] })).toMatchObject({ reply: 'Back again.', end_reason: null, error: null });
    llm.reply({ text: '' });
    expect(await turnOfC(id, { messages: [{ role: 'user', content: 'Hello?' }] })).toMatchObject({ reply: EMPTY_ANSWER_LINE, end_reason: null });
  });

  it('opens with the welcome greeting without asking the model, or waits when the callee talks first', async () => {
    const before = llm.requests.length;
    const greeter = await agentOfC({ welcome_greeting: 'Hi {{firstname}}, Ava from Acme.', opening_disclosure: 'This call is recorded.' });
    expect(await turnOfC(greeter, { messages: [], dynamic_variables: [{ name: 'firstname', value: 'Ada' }] })).toEqual({
      reply: 'This call is recorded. Hi Ada, Ava from Acme.',
      tool_calls: [],
      state: null,
      end_reason: null,
      error: null,
    });
    const waiting = await agentOfC({ who_talks_first: 'user' });
    expect((await turnOfC(waiting, { messages: [] })).reply).toBe('');
    expect(llm.requests).toHaveLength(before);
  });

  it('reports do_not_call and the end it brings, writing nothing to the do-not-call list', async () => {
    const id = await agentOfC({});
    llm.reply({ toolCalls: [{ name: 'do_not_call', arguments: {} }] }, { text: 'You will not be called again. Goodbye.' });
    const turn = await turnOfC(id, { messages: [{ role: 'user', content: 'Never call me again.' }] });
    expect(turn).toEqual({ reply: 'You will not be called again. Goodbye.', tool_calls: [{ name: 'do_not_call', arguments: {} }], state: null, end_reason: 'agent_hangup', error: null });
    expect(okData(await t.request('GET', '/v1/do-not-call', { token: c.key })).items).toEqual([]);
  });
});
