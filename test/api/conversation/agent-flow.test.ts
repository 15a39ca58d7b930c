import { firstError, gql } from '../graphql/graphql-client';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await startTestApp();
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
});
afterAll(() => t.close());

const valid = (hook: string) => ({
  states: [
    { name: 'greet', prompt: 'Greet {{firstname}}.', next: ['offer'] },
    { name: 'offer', prompt: 'Offer the plan.', next: [] },
  ],
  tools: [{ name: 'book_meeting', description: 'Books a meeting', parameters: { type: 'object', properties: { day: { type: 'string' } } }, webhook_id: hook }],
  transfer_numbers: ['+14155550199'],
  notes: 'kept as given',
});
const broken = {
  states: [
    { name: 'greet', next: ['nowhere'] },
    { name: 'greet', prompt: 'again' },
  ],
  tools: [{ name: 'end_call', parameters: { type: 'string' }, webhook_id: 'hook' }],
  transfer_numbers: ['415 555 0199'],
};
const brokenFields = [
  { field: 'agent_flow.states[0].next[0]', message: 'No state is named nowhere' },
  { field: 'agent_flow.states[1].name', message: 'Duplicate name' },
  { field: 'agent_flow.tools[0].name', message: 'Is the name of a built-in tool' },
  { field: 'agent_flow.tools[0].parameters', message: 'Must be a JSON Schema with "type": "object"' },
  { field: 'agent_flow.tools[0].webhook_id', message: 'Must be a UUID' },
  { field: 'agent_flow.transfer_numbers[0]', message: 'Must be an E.164 number such as +14155550100' },
];
const sorted = (fields: { field: string }[]) => [...fields].sort((x, y) => x.field.localeCompare(y.field));

/** The same errors as GraphQL names them: its field `agentFlow`, the flow's stored keys as they are. */
const inGraphQL = (fields: { field: string; message: unknown }[]) => fields.map((f) => ({ ...f, field: f.field.replace(/^agent_flow\./, 'agentFlow.') }));

describe('agent_flow', () => {
  it('is stored as given when valid, with state defaults filled', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Flowing', starting_state: 'greet', agent_flow: valid(a.flow.id) } }));
    expect(agent.agent_flow).toEqual(valid(a.flow.id));
    expect(agent.starting_state).toBe('greet');
  });

  it('is refused with a field error for each broken rule, on create and update, REST and GraphQL', async () => {
    const created = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Broken', agent_flow: broken } });
    expect(created.status).toBe(400);
    expect(created.body.message).toBe('Validation failed');
    expect(sorted(created.body.data)).toEqual(sorted(brokenFields));
    const updated = await t.request('PATCH', `/v1/ai-agent/${a.agent.id}`, { token: a.key, body: { agent_flow: { states: [{ name: 'a', next: ['b'] }] } } });
    expect(updated.status).toBe(400);
    expect(updated.body.data).toEqual([{ field: 'agent_flow.states[0].next[0]', message: 'No state is named b' }]);
    const res = await gql(t, 'mutation($f: JSONObject) { createAiAgent(input: { name: "Broken", agentFlow: $f }) { id } }', { f: broken }, a.key);
    expect(firstError(res)!.code).toBe('BAD_USER_INPUT');
    expect(sorted(firstError(res)!.fields)).toEqual(sorted(inGraphQL(brokenFields)));
  });

  it('needs starting_state to name one of its states', async () => {
    const res = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Lost', starting_state: 'close', agent_flow: valid(a.flow.id) } });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'starting_state', message: 'Must name one of agent_flow.states' }]);
  });

  it("refuses flow tools naming another company's flow, or a missing one, on create and update, REST and GraphQL", async () => {
    const missing = '00000000-0000-4000-8000-000000000001';
    const tools = [
      { name: 'own', webhook_id: a.flow.id },
      { name: 'foreign', webhook_id: b.flow.id },
      { name: 'missing', webhook_id: missing },
    ];
    const refused = [
      { field: 'agent_flow.tools[1].webhook_id', message: 'Must name a flow of your company' },
      { field: 'agent_flow.tools[2].webhook_id', message: 'Must name a flow of your company' },
    ];
    const created = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Borrower', agent_flow: { tools } } });
    expect(created.status).toBe(400);
    expect(created.body.data).toEqual(refused);
    const updated = await t.request('PATCH', `/v1/ai-agent/${a.agent.id}`, { token: a.key, body: { agent_flow: { tools } } });
    expect(updated.status).toBe(400);
    expect(updated.body.data).toEqual(refused);
    const res = await gql(t, 'mutation($f: JSONObject) { createAiAgent(input: { name: "Borrower", agentFlow: $f }) { id } }', { f: { tools } }, a.key);
    expect(firstError(res)!.code).toBe('BAD_USER_INPUT');
    expect(firstError(res)!.fields).toEqual(inGraphQL(refused));
  });

  it('refuses tool parameters that are not a usable JSON Schema', async () => {
    const tools = [{ name: 'odd', parameters: { type: 'object', properties: { day: { type: 'weekday' } } }, webhook_id: a.flow.id }];
    const res = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Odd', agent_flow: { tools } } });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'agent_flow.tools[0].parameters', message: expect.stringMatching(/^Not a valid JSON Schema: /) }]);
  });
});
