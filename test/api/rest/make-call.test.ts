import jwt from 'jsonwebtoken';
import pg from 'pg';
import { FROM, okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const makeCall = (body: unknown, token = a.key) => t.request('POST', '/v1/calls/make-call', { token, body });
const valid = () => ({ ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' });

describe('POST /v1/calls/make-call', () => {
  it('creates a queued test call with the documented fields and nulls', async () => {
    const res = await makeCall({ ...valid(), dynamic_variables: [{ name: 'firstname', value: 'Ada' }], workspace: 'sales' });
    const call = okData(res);
    expect(Object.keys(call).sort()).toEqual(
      [
        'id',
        'call_sid',
        'company_id',
        'ai_agent_id',
        'ai_agent_version',
        'campaign_id',
        'contact_id',
        'call_provider',
        'call_from',
        'call_to',
        'call_duration',
        'call_status',
        'call_direction',
        'is_test',
        'call_rating',
        'call_feedback',
        'record_url',
        'transcript',
        'transcript_object',
        'transcript_language',
        'cost',
        'cost_breakdown',
        'price_unit',
        'latency',
        'answered_by',
        'disconnect_reason',
        'resumes',
        'transfer',
        'analysis_sentiment',
        'agent_task_status',
        'agent_task_feedback',
        'metadata',
        'agent_dynamic_variables',
        'agent_post_call_outcomes',
        'notes',
        'workspace_id',
        'created_at',
        'updated_at',
        'deleted_at',
        'started_at',
        'ended_at',
        'retry_at',
      ].sort(),
    );
    expect(call).toMatchObject({
      company_id: a.companyId,
      ai_agent_id: a.agent.id,
      ai_agent_version: null,
      call_from: '+14155552671',
      call_to: '+14155550123',
      call_status: 'pstn-queued',
      call_direction: 'outgoing',
      is_test: true,
      call_duration: 0,
      resumes: 0,
      cost: 0,
      cost_breakdown: { telephony: 0, llm: 0, recording: 0, total: 0 },
      price_unit: 'USD',
      call_provider: 'simulated',
      agent_dynamic_variables: [{ name: 'firstname', value: 'Ada' }],
      workspace_id: 'sales',
    });
    for (const field of [
      'campaign_id',
      'contact_id',
      'record_url',
      'transcript',
      'transcript_object',
      'transcript_language',
      'answered_by',
      'transfer',
      'metadata',
      'agent_post_call_outcomes',
      'notes',
      'deleted_at',
      'started_at',
      'ended_at',
      'retry_at',
    ]) {
      expect(call[field]).toBeNull();
    }
    expect(call.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(call.created_at).toISOString()).toBe(call.created_at);
    expect(typeof call.call_sid).toBe('string');
    expect(typeof call.call_rating).toBe('number');
    expect(typeof call.latency).toBe('number');
    expect(typeof call.disconnect_reason).toBe('string');
  });

  it('answers make-calls sent together each with its own call or refusal, the accepted ones stored by shared commits', async () => {
    const suppressed = '+14155550188';
    okData(await t.request('POST', '/v1/do-not-call', { token: a.key, body: { numbers: [suppressed] } }));
    const bodies = [
      ...Array.from({ length: 6 }, (_, i) => ({ ...valid(), call_to: `+1415555014${i}`, workspace: 'together' })),
      { ...valid(), call_to: suppressed },
      { ...valid(), ai_agent_id: b.agent.id },
    ];
    const answers = await Promise.all(bodies.map(async (body) => makeCall(body)));
    const calls = answers.slice(0, 6).map((res) => okData(res));
    expect(calls.map((c) => c.call_to)).toEqual(bodies.slice(0, 6).map((body) => body.call_to));
    // The refusals as this route answers every service failure (interface 4.1).
    for (const refused of answers.slice(6)) expect([refused.status, refused.body]).toEqual([400, { status: 'error', message: 'error', data: '' }]);
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      // Rows inserted by one statement share its transaction id.
      const { rows } = await client.query<{ n: number }>('SELECT count(DISTINCT xmin::text)::int AS n FROM calls WHERE id = ANY ($1::uuid[])', [calls.map((c) => c.id)]);
      expect(rows[0].n).toBeLessThan(6);
      const refused = await client.query('SELECT id FROM calls WHERE call_to = $1 OR ai_agent_id = $2', [suppressed, b.agent.id]);
      expect(refused.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('defaults the workspace to "default" and echoes no variables as an empty list', async () => {
    const call = okData(await makeCall({ ...valid(), dynamic_variables: null, workspace: null }));
    expect(call.workspace_id).toBe('default');
    expect(call.agent_dynamic_variables).toEqual([]);
  });

  it.each([
    ['E.164', '+14155550123', '+14155550123'],
    ['national with parentheses', '(415) 555-0123', '+14155550123'],
    ['national with hyphens', '415-555-0123', '+14155550123'],
    ['national with dots', '415.555.0123', '+14155550123'],
    ['national with spaces', '415 555 0123', '+14155550123'],
    ['with an extension', '+1 415 555 0123 ext. 42', '+14155550123'],
    ['with an x extension', '415-555-0123 x42', '+14155550123'],
    ['international with separators', '+44 20 7946 0958', '+442079460958'],
  ])('accepts call_to %s', async (_name, input, stored) => {
    const call = okData(await makeCall({ ...valid(), call_to: input }));
    expect(call.call_to).toBe(stored);
  });

  it('accepts call_from in a national format and matches it to the owned number', async () => {
    const call = okData(await makeCall({ ...valid(), call_from: '(415) 555-2671' }));
    expect(call.call_from).toBe(FROM);
  });

  it.each([
    ['an invalid call_to', { call_to: '12345' }, 'call_to', 'Invalid phone number format'],
    ['free text as call_from', { call_from: 'call me at 415 555 0123' }, 'call_from', 'Invalid phone number format'],
    ['an empty variable name', { dynamic_variables: [{ name: '', value: 'x' }] }, 'dynamic_variables[0].name', 'Dynamic variable name must not be empty'],
    [
      'a variable name with spaces',
      {
        dynamic_variables: [
          { name: 'ok', value: 'x' },
          { name: 'first name', value: 'x' },
        ],
      },
      'dynamic_variables[1].name',
      'Dynamic variable name must not contain spaces',
    ],
    ['an empty variable value', { dynamic_variables: [{ name: 'a', value: '' }] }, 'dynamic_variables[0].value', 'Dynamic variable value must not be empty'],
    ['an empty workspace', { workspace: '' }, 'workspace', 'Workspace must not be empty'],
    ['a workspace over 100 characters', { workspace: 'w'.repeat(101) }, 'workspace', 'Workspace must be at most 100 characters'],
    ['a non-UUID agent id', { ai_agent_id: 'agent-1' }, 'ai_agent_id', 'Must be a UUID'],
    ['a number as call_to', { call_to: 4155550123 }, 'call_to', 'Expected string, received number'],
  ])('refuses %s with 400 Validation failed', async (_name, patch, field, message) => {
    const res = await makeCall({ ...valid(), ...patch });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field, message }] });
  });

  it('accepts a workspace of exactly 100 characters', async () => {
    okData(await makeCall({ ...valid(), workspace: 'w'.repeat(100) }));
  });

  it('names every missing field at once', async () => {
    const res = await makeCall({});
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([
      { field: 'ai_agent_id', message: 'Required' },
      { field: 'call_from', message: 'Required' },
      { field: 'call_to', message: 'Required' },
    ]);
  });

  it.each([
    ['an agent that does not exist', () => ({ ai_agent_id: '00000000-0000-4000-8000-000000000000' })],
    ["another company's agent", () => ({ ai_agent_id: b.agent.id })],
    ['a call_from number the company does not own', () => ({ call_from: '+14155552672' })],
    ['an agent template', () => ({ ai_agent_id: '6f1c0b5e-0a51-4c37-9a11-000000000001' })],
  ])('answers the service failure for %s', async (_name, patch) => {
    const res = await makeCall({ ...valid(), ...patch() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'error', data: '' });
  });

  it('accepts a JWT as well as an API key', async () => {
    const call = okData(await makeCall(valid(), t.jwtFor(a.companyId)));
    expect(call.company_id).toBe(a.companyId);
  });

  it.each([
    ['no token', null],
    ['an unknown API key', 'sk_not-a-real-key'],
    ['a JWT signed with another secret', 'jwt:other'],
    ['an expired JWT', 'jwt:expired'],
    ['a JWT without exp', 'jwt:noexp'],
  ])('answers 401 for %s', async (_name, token) => {
    let bearer = token;
    if (token === 'jwt:other') bearer = t.jwtFor(a.companyId, {}, 'another-secret-of-16-chars');
    if (token === 'jwt:expired') bearer = t.jwtFor(a.companyId, { exp: Math.floor(Date.now() / 1000) - 10 });
    if (token === 'jwt:noexp') bearer = jwt.sign({ company_id: a.companyId }, 'test-secret-at-least-16-chars');
    const res = await t.request('POST', '/v1/calls/make-call', { token: bearer, body: valid() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', message: 'Unauthorized', data: '' });
  });

  it('refuses malformed JSON with a clear message and writes nothing', async () => {
    const before = okData(await t.request('GET', '/v1/calls', { token: a.key })).items.length;
    const res = await t.request('POST', '/v1/calls/make-call', { token: a.key, raw: '{"ai_agent_id": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Malformed JSON body', data: '' });
    const after = okData(await t.request('GET', '/v1/calls', { token: a.key })).items.length;
    expect(after).toBe(before);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await makeCall({ ...valid(), notes: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.status).toBe('error');
  });

  it('closes the connection of a body it refused unread, so that nothing waits for the rest', async () => {
    const { apiKey } = await t.company('Fresh'); // not yet cached: the body waits for authentication
    const res = await makeCall({ ...valid(), notes: 'x'.repeat(1024 * 1024 + 10) }, apiKey);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    await t.restart(); // a graceful shutdown waits for open requests
    okData(await t.request('GET', '/v1/calls', { token: a.key }));
  });
});
