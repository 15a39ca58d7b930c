import { setTimeout as sleep } from 'node:timers/promises';
import { okData, type Tenant, tenant, twoTenants } from '../../support/fixtures';
import { revokeKeys, startTestApp, type TestApp } from '../../support/harness';
import { parseExposition, valueOf } from '../ops/prometheus';

// The by-id read comes from a store query (no entity), written straight to JSON, and is
// answered before the Koa chain (src/rest/hot-reads.ts) unless the request has an Origin;
// the list and the write answers still serialize entities. All must answer the same bytes
// for the same record, and the fast path must keep what the chain gives.

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const NOT_FOUND = { status: 'error', message: 'Not found', data: '' };
const UNAUTHORIZED = { status: 'error', message: 'Unauthorized', data: '' };

/** The `data` of an answer, as the bytes the server wrote. */
const dataBytes = (text: string, index?: number) => {
  const data = (JSON.parse(text) as { data: unknown }).data;
  return JSON.stringify(index === undefined ? data : (data as unknown[])[index]);
};

describe('GET /v1/campaigns/by-id/{id}', () => {
  it('answers the bytes the entity serializer answers, every field set, key order included', async () => {
    const campaign = okData(await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Full', ai_agent_id: a.agent.id } }));
    const updated = await t.request('POST', `/compaign/v1/campaign/update/${campaign.id}`, {
      token: a.key,
      body: {
        notes: 'notes "quoted" ✓',
        started_at: '2026-01-02',
        ended_at: '2026-12-31',
        days_of_week: [1, 7],
        contacts_list_tags: [['vip'], ['b']],
        contacts_list_source_metadata: { z: 1, a: { nested: [true, null] } },
        agent_variables_contact_metadata_mapping: { first: 'firstname' },
        number_of_call_attempts: [2, 1],
        retry_delay: [30, 2],
        retry_delay_unit: ['minutes', 'hours'],
        inbound_phone_number_id: a.number.id,
        outbound_phone_number_id: a.number.id,
        webhook_id: a.flow.id,
        webhook_mapping_variables: { call_id: 'call.id' },
        webhook_mapping_variables_sources: { sources: ['call'] },
        allow_non_local_calls: true,
      },
    });
    expect(updated.body).toMatchObject({ status: 'ok' });
    const list = await t.request('GET', '/v1/campaigns/list', { token: a.key });
    const index = (list.body.data as { id: string }[]).findIndex((c) => c.id === campaign.id);
    const byId = await t.request('GET', `/v1/campaigns/by-id/${campaign.id}`, { token: a.key });
    expect(byId.status).toBe(200);
    expect(dataBytes(byId.text)).toBe(dataBytes(list.text, index));
    expect(byId.body.data).toMatchObject({ started_at: '2026-01-02', webhook_id: a.flow.id, company_id: a.companyId });
  });
});

describe('GET /v1/campaigns/by-id/{id} before the Koa chain', () => {
  const byId = (id: string, options: { token?: string; headers?: Record<string, string> } = {}) => t.request('GET', `/v1/campaigns/by-id/${id}`, options);
  /** The answer's headers a client may read, but the date and the request id. */
  const headersOf = (res: { headers: Headers }) => [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');

  it('answers what the Koa chain answers (a request with an Origin goes through it): status, headers and bytes', async () => {
    const viaKoa = { headers: { origin: 'https://dashboard.example.com' } };
    const cases: [string, string | undefined][] = [
      [a.campaign.id, a.key],
      [b.campaign.id, a.key],
      ['00000000-0000-4000-8000-000000000000', a.key],
      [a.campaign.id, undefined],
      [a.campaign.id, 'sk_not_a_key_of_anyone_0123456789'],
    ];
    for (const [id, token] of cases) {
      const fast = await byId(id, { token });
      const chain = await byId(id, { token, headers: viaKoa.headers });
      expect(fast.status).toBe(chain.status);
      expect(fast.text).toBe(chain.text);
      expect(headersOf(fast)).toEqual(headersOf(chain).filter(([name]) => !name.startsWith('access-control-')));
    }
  });

  it("keeps tenancy: another company's campaign, an unknown and a deleted one answer the 404 envelope", async () => {
    expect(okData(await byId(b.campaign.id, { token: b.key })).id).toBe(b.campaign.id);
    expect(await byId(b.campaign.id, { token: a.key })).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await byId('00000000-0000-4000-8000-000000000000', { token: a.key })).toMatchObject({ status: 404, body: NOT_FOUND });
    const doomed = okData(await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Doomed', ai_agent_id: a.agent.id } }));
    okData(await t.request('DELETE', `/v1/campaigns/${doomed.id}`, { token: a.key }));
    expect(await byId(doomed.id, { token: a.key })).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it('leaves a malformed id and a query string to the route, which answers them as before', async () => {
    const invalid = { status: 'error', message: 'Validation failed', data: [{ field: 'id', message: 'Must be a UUID' }] };
    expect(await byId('not-a-uuid', { token: a.key })).toMatchObject({ status: 400, body: invalid });
    expect(await byId('%E0%A4%A', { token: a.key })).toMatchObject({ status: 400, body: { status: 'error', message: 'Malformed URL encoding', data: '' } });
    expect(await byId('%E0%A4%A')).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(okData(await byId(`${a.campaign.id}?fields=all`, { token: a.key })).id).toBe(a.campaign.id);
    expect(okData(await byId(a.campaign.id.toUpperCase(), { token: a.key })).id).toBe(a.campaign.id);
  });

  it('refuses a missing or unknown credential with 401, and echoes a sane X-Request-Id or makes one', async () => {
    expect(await byId(a.campaign.id)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await byId(a.campaign.id, { token: 'sk_unknown_0123456789abcdef' })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect((await byId(a.campaign.id, { token: a.key, headers: { 'x-request-id': 'trace-42' } })).headers.get('x-request-id')).toBe('trace-42');
    expect((await byId(a.campaign.id, { token: a.key, headers: { 'x-request-id': 'no spaces allowed' } })).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('times each answer under the route pattern, by status', async () => {
    const app = await startTestApp({ METRICS_TOKEN: 'metrics-token-for-tests-0123456789' });
    try {
      const c = await tenant(app, 'C');
      okData(await app.request('GET', `/v1/campaigns/by-id/${c.campaign.id}`, { token: c.key }));
      await app.request('GET', '/v1/campaigns/by-id/00000000-0000-4000-8000-000000000000', { token: c.key });
      await app.request('GET', `/v1/campaigns/by-id/${c.campaign.id}`);
      const samples = parseExposition((await app.request('GET', '/metrics', { token: 'metrics-token-for-tests-0123456789' })).text);
      const count = (status: string) => valueOf(samples, 'switchboard_http_request_duration_seconds_count', { route: '/v1/campaigns/by-id/:id', method: 'GET', status });
      expect([count('200'), count('404'), count('401')]).toEqual([1, 1, 1]);
    } finally {
      await app.close();
    }
  });
});

describe('GET /v1/campaigns/by-id/{id} before the Koa chain, under limits', () => {
  it('counts each read against the rate limits: 429 with Retry-After once used up', async () => {
    const app = await startTestApp({ RATE_LIMIT_PER_CREDENTIAL: '3', RATE_LIMIT_PER_COMPANY: '100' });
    try {
      const { companyId, apiKey } = await app.company();
      const caller = { scope: { companyId, userId: null }, em: app.app.orm.em.fork() };
      const agent = await app.app.services.agents.create(caller, { name: 'Agent' });
      const campaign = await app.app.services.campaigns.create(caller, { name: 'Limited', aiAgentId: agent.id });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await app.request('GET', `/v1/campaigns/by-id/${campaign.id}`, { token: apiKey })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await app.request('GET', `/v1/campaigns/by-id/${campaign.id}`, { token: apiKey });
      expect(refused).toMatchObject({ status: 429, body: { status: 'error', message: 'Too many requests', data: '' } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await app.close();
    }
  });

  it('refuses a revoked API key within AUTH_TRUST_S of its revocation', async () => {
    const app = await startTestApp({ AUTH_TRUST_S: '1' });
    try {
      const c = await tenant(app, 'Revoked');
      expect((await app.request('GET', `/v1/campaigns/by-id/${c.campaign.id}`, { token: c.key })).status).toBe(200);
      await revokeKeys(app, c.companyId);
      await sleep(1_100); // the trust window is wall-clock time (AuthService reads Date.now()): no state to wait on
      expect(await app.request('GET', `/v1/campaigns/by-id/${c.campaign.id}`, { token: c.key })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    } finally {
      await app.close();
    }
  });
});
