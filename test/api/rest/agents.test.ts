import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import { outcomeDefinitions } from '../../../src/services/conversation/analysis-schema';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const AGENT_FIELDS = [
  'id',
  'name',
  'description',
  'language',
  'status',
  'prompt',
  'starting_state',
  'who_talks_first',
  'reminder_frequency_from',
  'reminder_frequency_to',
  'max_silence_duration',
  'responsiveness',
  'voice_speed',
  'voice_temperature',
  'interruption_sensitivity',
  'llm_temperature',
  'agent_type',
  'background_audio_status',
  'workspace_id',
  'agent_flow',
  'agent_dynamic_variables',
  'agent_post_call_outcomes',
  'voicemail_action',
  'voicemail_message',
  'call_recording',
  'opening_disclosure',
  'welcome_greeting',
  'transfer_mode',
  'hold_audio_url',
];

describe('GET /v1/ai-agent/{id}', () => {
  it('returns exactly the documented fields', async () => {
    const agent = okData(await t.request('GET', `/v1/ai-agent/${a.agent.id}`, { token: a.key }));
    expect(Object.keys(agent).sort()).toEqual([...AGENT_FIELDS].sort());
    expect(agent).toMatchObject({ id: a.agent.id, name: 'A agent', prompt: 'Hello {{firstname}}', workspace_id: 'default', agent_flow: {} });
    for (const f of ['reminder_frequency_from', 'max_silence_duration', 'responsiveness', 'voice_speed', 'llm_temperature']) {
      expect(Number.isInteger(agent[f])).toBe(true);
    }
  });

  it("answers 404 for another company's agent and for an unknown id", async () => {
    for (const id of [b.agent.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await t.request('GET', `/v1/ai-agent/${id}`, { token: a.key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: 'Not found', data: '' });
    }
  });

  it('reads a template by id, as every company can', async () => {
    const [template] = okData<any[]>(await t.request('GET', '/v1/ai-agent/templates', { token: a.key }));
    expect(okData(await t.request('GET', `/v1/ai-agent/${template.id}`, { token: b.key })).name).toBe(template.name);
  });
});

describe('GET /v1/ai-agent/templates', () => {
  it('lists the built-in catalogue, in the agent shape, for every company', async () => {
    const forA = okData<any[]>(await t.request('GET', '/v1/ai-agent/templates', { token: a.key }));
    const forB = okData<any[]>(await t.request('GET', '/v1/ai-agent/templates', { token: b.key }));
    expect(forA.length).toBeGreaterThanOrEqual(3);
    expect(forB).toEqual(forA);
    expect(Object.keys(forA[0]).sort()).toEqual([...AGENT_FIELDS].sort());
    expect(forA.map((x) => x.id)).not.toContain(a.agent.id);
  });
});

describe('GET /v1/ai-agent', () => {
  it("lists the company's agents of the default workspace unless told another", async () => {
    const sales = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Sales bot', workspace: 'sales' } }));
    expect(sales.workspace_id).toBe('sales');
    const byDefault = okData<any[]>(await t.request('GET', '/v1/ai-agent', { token: a.key }));
    expect(byDefault.map((x) => x.id)).toEqual([a.agent.id]);
    const inSales = okData<any[]>(await t.request('GET', '/v1/ai-agent?workspace=sales', { token: a.key }));
    expect(inSales.map((x) => x.id)).toEqual([sales.id]);
    expect(okData<any[]>(await t.request('GET', '/v1/ai-agent?workspace=sales', { token: b.key }))).toEqual([]);
  });
});

describe('agent management', () => {
  it('creates with defaults inside the product ranges', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Defaults' } }));
    expect(agent).toMatchObject({ language: 'en-US', status: 'active', responsiveness: 50, voice_speed: 50, workspace_id: 'default' });
  });

  it.each([
    ['responsiveness', 101, 'Must be between 0 and 100'],
    ['llm_temperature', -1, 'Must be between 0 and 100'],
    ['voice_speed', 50.5, 'Must be an integer'],
    ['max_silence_duration', 0, 'Must be between 1 and 3600'],
    ['interruption_sensitivity', '50', 'Expected number, received string'],
  ])('refuses %s = %p naming the field', async (field, value, message) => {
    const res = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'x', [field]: value } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field, message }] });
  });

  it('accepts who_talks_first agent or user and outcomes of the analysed shape only, naming the field otherwise', async () => {
    const outcomes = { interested: { type: 'boolean' }, plan: { type: 'string', description: 'The plan', enum: ['gold', 'silver'] } };
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'W', who_talks_first: 'user', agent_post_call_outcomes: outcomes } }));
    expect(agent).toMatchObject({ who_talks_first: 'user', agent_post_call_outcomes: outcomes });
    const refused = async (body: Record<string, unknown>) => {
      const res = await t.request('PATCH', `/v1/ai-agent/${agent.id}`, { token: a.key, body });
      expect(res.status).toBe(400);
      return res.body.data;
    };
    expect(await refused({ who_talks_first: 'caller' })).toEqual([{ field: 'who_talks_first', message: 'Must be agent or user' }]);
    expect(await refused({ agent_post_call_outcomes: { plan: 'gold or silver' } })).toEqual([{ field: 'agent_post_call_outcomes.plan.type', message: expect.any(String) }]);
    expect(await refused({ agent_post_call_outcomes: { plan: ['gold'] } })).toEqual([{ field: 'agent_post_call_outcomes.plan', message: expect.any(String) }]);
    expect(await refused({ agent_post_call_outcomes: { plan: { type: 'date' } } })).toEqual([{ field: 'agent_post_call_outcomes.plan.type', message: expect.any(String) }]);
    expect(await refused({ agent_post_call_outcomes: { 'the plan': { type: 'string' } } })).toEqual([{ field: 'agent_post_call_outcomes.the plan', message: expect.any(String) }]);
    expect(okData(await t.request('GET', `/v1/ai-agent/${agent.id}`, { token: a.key }))).toMatchObject({ who_talks_first: 'user', agent_post_call_outcomes: outcomes });
  });

  it('accepts an outcome given as its type alone, and asks the analysis for it as that type', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'S', agent_post_call_outcomes: { booked: 'boolean' } } }));
    expect(agent.agent_post_call_outcomes).toEqual({ booked: 'boolean' });
    expect([...outcomeDefinitions(agent.agent_post_call_outcomes)]).toEqual([['booked', { type: 'boolean', description: '' }]]);
  });

  it('keeps reminder_frequency_from at most reminder_frequency_to, also across updates', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'R', reminder_frequency_from: 10, reminder_frequency_to: 20 } }));
    const res = await t.request('PATCH', `/v1/ai-agent/${agent.id}`, { token: a.key, body: { reminder_frequency_from: 30 } });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'reminder_frequency_from', message: 'Must not be greater than reminder_frequency_to' }]);
    expect(okData(await t.request('GET', `/v1/ai-agent/${agent.id}`, { token: a.key })).reminder_frequency_from).toBe(10);
  });

  it('updates partially and soft-deletes, only its own agents', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Editable', prompt: 'p' } }));
    expect((await t.request('PATCH', `/v1/ai-agent/${agent.id}`, { token: b.key, body: { name: 'x' } })).status).toBe(404);
    const updated = okData(await t.request('PATCH', `/v1/ai-agent/${agent.id}`, { token: a.key, body: { voice_speed: 80 } }));
    expect(updated).toMatchObject({ name: 'Editable', prompt: 'p', voice_speed: 80 });
    expect((await t.request('DELETE', `/v1/ai-agent/${agent.id}`, { token: b.key })).status).toBe(404);
    okData(await t.request('DELETE', `/v1/ai-agent/${agent.id}`, { token: a.key }));
    expect((await t.request('GET', `/v1/ai-agent/${agent.id}`, { token: a.key })).status).toBe(404);
  });

  it('refuses to edit or delete a template', async () => {
    const [template] = okData<any[]>(await t.request('GET', '/v1/ai-agent/templates', { token: a.key }));
    expect((await t.request('PATCH', `/v1/ai-agent/${template.id}`, { token: a.key, body: { name: 'mine' } })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/ai-agent/${template.id}`, { token: a.key })).status).toBe(404);
  });
});
