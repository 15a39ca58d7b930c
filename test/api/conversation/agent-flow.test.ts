import { firstError, gql } from '../graphql/graphql-client';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
beforeAll(async () => {
  t = await startTestApp();
  a = await tenant(t, 'A');
});
afterAll(() => t.close());

const HOOK = '00000000-0000-4000-8000-000000000001';
const valid = {
  states: [
    { name: 'greet', prompt: 'Greet {{firstname}}.', next: ['offer'] },
    { name: 'offer', prompt: 'Offer the plan.', next: [] },
  ],
  tools: [{ name: 'book_meeting', description: 'Books a meeting', parameters: { type: 'object', properties: { day: { type: 'string' } } }, webhook_id: HOOK }],
  transfer_numbers: ['+14155550199'],
  notes: 'kept as given',
};
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

describe('agent_flow', () => {
  it('is stored as given when valid, with state defaults filled', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Flowing', starting_state: 'greet', agent_flow: valid } }));
    expect(agent.agent_flow).toEqual(valid);
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
    expect(sorted(firstError(res)!.fields)).toEqual(sorted(brokenFields));
  });

  it('needs starting_state to name one of its states', async () => {
    const res = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Lost', starting_state: 'close', agent_flow: valid } });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'starting_state', message: 'Must name one of agent_flow.states' }]);
  });
});
