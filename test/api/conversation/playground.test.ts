import { firstError, gql } from '../graphql/graphql-client';
import { FakeLlm } from '../../support/fake-llm';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let agentId: string;

beforeAll(async () => {
  llm = await FakeLlm.start();
  t = await startTestApp({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', RATE_LIMIT_MAKE_CALL: '8' });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
  const agentFlow = { states: [{ name: 'greet', prompt: 'Greet {{firstname}}.', next: ['offer'] }, { name: 'offer', prompt: 'Offer Gold.' }] };
  agentId = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Player', prompt: 'You are Ava.', starting_state: 'greet', agent_flow: agentFlow } })).id;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const testChat = (body: unknown, id = agentId, key = a.key) => t.request('POST', `/v1/ai-agent/${id}/test-chat`, { token: key, body });

describe('the agent playground', () => {
  it("answers the agent's next turn with its tool calls and state, placing no call", async () => {
    llm.reply({ text: 'Hello Ada!', toolCalls: [{ name: 'go_to_state', arguments: { state: 'offer' } }, { name: 'end_call', arguments: {} }] });
    const res = await testChat({ messages: [{ role: 'user', content: 'Hi' }, { role: 'agent', content: 'Hello?' }, { role: 'user', content: 'Yes?' }], dynamic_variables: [{ name: 'firstname', value: 'Ada' }] });
    expect(okData(res)).toEqual({ reply: 'Hello Ada!', tool_calls: [{ name: 'go_to_state', arguments: { state: 'offer' } }, { name: 'end_call', arguments: {} }], state: 'offer' });
    const sent = llm.requests.at(-1)!;
    expect(sent.messages[0].content).toContain('Current state: greet.\nGreet Ada.');
    expect(sent.messages.slice(1)).toEqual([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello?' }, { role: 'user', content: 'Yes?' }]);
    expect(okData(await t.request('GET', '/v1/calls', { token: a.key })).items).toHaveLength(0);
  });

  it('answers in the state asked for, over GraphQL too', async () => {
    llm.reply({ text: 'Gold is great.' });
    const res = await gql(t, 'mutation($id: ID!, $input: TestAgentTurnInput!) { testAgentTurn(id: $id, input: $input) { reply toolCalls { name arguments } state } }', { id: agentId, input: { messages: [{ role: 'user', content: 'Tell me' }], state: 'offer' } }, a.key);
    expect(res.data).toEqual({ testAgentTurn: { reply: 'Gold is great.', toolCalls: [], state: 'offer' } });
    expect(llm.requests.at(-1)!.messages[0].content).toContain('Current state: offer.\nOffer Gold.');
  });

  it('refuses bad input with field errors, and another company\'s agent with 404', async () => {
    const bad = await testChat({ messages: [{ role: 'bot', content: 1 }], state: 'nowhere', extra: true });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 'error', message: 'Validation failed' });
    expect(bad.body.data.map((f: any) => f.field).sort()).toEqual(['extra', 'messages[0].content', 'messages[0].role']);
    const unknownState = await testChat({ messages: [], state: 'nowhere' });
    expect(unknownState.body.data).toEqual([{ field: 'state', message: 'Must name one of the agent_flow.states' }]);
    const foreign = await testChat({ messages: [] }, agentId, b.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: 'error', message: 'Not found', data: '' });
    const gqlForeign = await gql(t, 'mutation($id: ID!) { testAgentTurn(id: $id, input: { messages: [] }) { reply } }', { id: agentId }, b.key);
    expect(firstError(gqlForeign)).toEqual({ code: 'NOT_FOUND' });
  });

  it('tells the caller plainly when the model fails', async () => {
    llm.reply({ status: 500 }, { status: 500 });
    const res = await testChat({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'The language model failed (http)', data: '' });
  });

  it('is rate limited like make-call', async () => {
    llm.fallback = { text: 'Hi.' };
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await testChat({ messages: [] })).status);
    expect(statuses).toContain(429);
  });
});
