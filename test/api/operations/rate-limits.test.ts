import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { closeCode, firstError, gql, query, wsClient } from '../graphql/graphql-client';
import { okData } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/**
 * Low limits, one-minute windows: no window ends during a test. The tests stand for one proxy
 * in front of the service: the last X-Forwarded-For entry they send is the client's address.
 */
const LIMITS = {
  RATE_LIMIT_PER_CREDENTIAL: '5',
  RATE_LIMIT_PER_COMPANY: '8',
  RATE_LIMIT_MAKE_CALL: '2',
  RATE_LIMIT_FLOW_TRIGGER: '3',
  AUTH_FAILURES_PER_MINUTE: '3',
  TRUST_PROXY_HOPS: '1',
};

const MAKE_CALL = 'mutation($input: MakeCallInput!) { makeCall(input: $input) { id } }';
const TRIGGER = 'mutation($id: ID!) { triggerWebhook(id: $id) { id } }';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(LIMITS);
});
afterAll(() => t.close());

let companies = 0;

/**
 * A company with an agent, a number of its own (a number belongs to one company) and a flow,
 * made through the services so that no request is counted before the test starts.
 */
async function company(app: TestApp = t) {
  const from = `+1415555${3000 + ++companies}`;
  const { companyId, apiKey } = await app.company();
  const caller = { scope: { companyId, userId: null }, em: app.app.orm.em.fork() };
  const { services } = app.app;
  const agent = await services.agents.create(caller, { name: 'Agent' });
  await services.phoneNumbers.create(caller, { phoneNumber: from });
  const flow = await services.webhooks.create(caller, { name: 'Flow', steps: [{ stepNumber: 1, webhookUrl: 'https://example.com/hook' }] });
  return { companyId, key: apiKey, agentId: agent.id, flowId: flow.id, from };
}

const list = (token: string, app: TestApp = t) => app.request('GET', '/v1/campaigns/list', { token });

async function statuses(n: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < n; i++) seen.push((await send()).status);
  return seen;
}

function expectRefused(res: { status: number; headers: Headers; body: unknown }, windowS = 60, status = 429): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ status: 'error', message: 'Too many requests', data: '' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowS);
}

describe('REST', () => {
  it('answers 429 with Retry-After and the envelope once a key has made its requests, on every route policy', async () => {
    const a = await company();
    expect(await statuses(5, () => list(a.key))).toEqual([200, 200, 200, 200, 200]);
    expectRefused(await list(a.key));
    // The legacy routes answer every failure but credentials with HTTP 200 `error` (interface 4.2, 4.3), this one too.
    expectRefused(await t.request('GET', '/compaign/v1/contact', { token: a.key }), 60, 200);
    expectRefused(await t.request('POST', `/compaign/v1/campaign/update/${a.agentId}`, { token: a.key, body: { name: 'x' } }), 60, 200);
    expectRefused(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agentId, call_from: a.from, call_to: '+14155550123' } }));
  });

  it('refuses an address that failed authentication AUTH_FAILURES_PER_MINUTE times, a valid key too, on every route policy', async () => {
    const a = await company();
    const from = { 'x-forwarded-for': '203.0.113.1' };
    const listFrom = (token: string) => t.request('GET', '/v1/campaigns/list', { token, headers: from });
    expect(await statuses(3, () => listFrom('sk_not-a-key'))).toEqual([401, 401, 401]);
    expectRefused(await listFrom('sk_not-a-key'));
    expectRefused(await listFrom(a.key));
    expectRefused(await t.request('GET', `/v1/campaigns/by-id/${randomUUID()}`, { token: a.key, headers: from }));
    expectRefused(await t.request('GET', '/compaign/v1/contact', { token: a.key, headers: from }), 60, 200);
    // Other addresses are not affected.
    okData(await t.request('GET', '/v1/campaigns/list', { token: a.key, headers: { 'x-forwarded-for': '203.0.113.2' } }));
  });

  it('counts each key on its own and every key of a company together; other companies are not affected', async () => {
    const a = await company();
    const { apiKey: second } = await t.app.services.auth.createApiKey(t.app.orm.em.fork(), a.companyId);
    expect(await statuses(7, () => list(a.key))).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // The refused requests of the first key were not counted for the company: 3 are left.
    expect(await statuses(4, () => list(second))).toEqual([200, 200, 200, 429]);
    expectRefused(await list(second));

    const b = await company();
    okData(await list(b.key));
  });

  it('counts each JWT user as a credential of its own', async () => {
    const a = await company();
    const ada = t.jwtFor(a.companyId, { sub: 'ada' });
    const bob = t.jwtFor(a.companyId, { sub: 'bob' });
    expect(await statuses(6, () => list(ada))).toEqual([200, 200, 200, 200, 200, 429]);
    okData(await list(bob));
  });

  it('limits make-calls per company below the request limit', async () => {
    const a = await company();
    const makeCall = () => t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agentId, call_from: a.from, call_to: '+14155550123' } });
    okData(await makeCall());
    okData(await makeCall());
    expectRefused(await makeCall());
    okData(await list(a.key));
  });

  it('limits flow triggers per company below the request limit, over REST and GraphQL together', async () => {
    const a = await company();
    const trigger = () => t.request('POST', `/v1/webhooks/${a.flowId}/trigger`, { token: a.key, body: {} });
    expect(await statuses(3, trigger)).toEqual([200, 200, 200]);
    expectRefused(await trigger());
    const res = await gql(t, TRIGGER, { id: a.flowId }, a.key);
    expect(res.status).toBe(200);
    expect(res.data).toBeNull();
    expect(firstError(res)).toEqual({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
  });
});

describe('GraphQL', () => {
  it('refuses a whole HTTP request with 429, code RATE_LIMITED and retryAfter', async () => {
    const a = await company();
    for (let i = 0; i < 5; i++) expect((await gql(t, '{ phoneNumbers { id } }', {}, a.key)).status).toBe(200);
    const res = await gql(t, '{ phoneNumbers { id } }', {}, a.key);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.errors).toEqual([{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', retryAfter: Number(res.headers.get('retry-after')) } }]);
  });

  it('refuses an address that failed authentication AUTH_FAILURES_PER_MINUTE times with 429 RATE_LIMITED, a valid key too', async () => {
    const a = await company();
    const post = (token: string) => t.request('POST', '/graphql', { token, headers: { 'x-forwarded-for': '203.0.113.3' }, body: { query: '{ phoneNumbers { id } }' } });
    expect(await statuses(3, () => post('sk_not-a-key'))).toEqual([401, 401, 401]);
    for (const token of ['sk_not-a-key', a.key]) {
      const res = await post(token);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((res.body as { errors: unknown }).errors).toEqual([{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', retryAfter: Number(res.headers.get('retry-after')) } }]);
    }
  });

  it('refuses websocket connections from an address that failed authentication AUTH_FAILURES_PER_MINUTE times, a valid key too', async () => {
    const a = await company();
    const headers = { 'x-forwarded-for': '203.0.113.4' };
    class FromAddress extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    }
    const clientFrom = (token: string) =>
      createClient({ url: `${t.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: FromAddress, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: true });
    for (let i = 0; i < 3; i++) expect(await closeCode(clientFrom('sk_not-a-key'))).toBe(4403);
    expect(await closeCode(clientFrom(a.key))).toBe(4403);
    // The same key from another address connects.
    const served = wsClient(t, a.key);
    try {
      expect((await query(served, '{ phoneNumbers { id } }')).errors).toBeUndefined();
    } finally {
      await served.dispose();
    }
  });

  it('refuses makeCall past the make-call limit, within a request that is served', async () => {
    const a = await company();
    const input = { aiAgentId: a.agentId, callFrom: a.from, callTo: '+14155550123' };
    for (let i = 0; i < 2; i++) expect((await gql(t, MAKE_CALL, { input }, a.key)).errors).toBeUndefined();
    const res = await gql(t, MAKE_CALL, { input }, a.key);
    expect(res.status).toBe(200);
    expect(firstError(res)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(firstError(res)!.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('counts every websocket operation as a request', async () => {
    const a = await company();
    expect(await statuses(3, () => list(a.key))).toEqual([200, 200, 200]);
    const client = wsClient(t, a.key);
    try {
      await query(client, '{ phoneNumbers { id } }');
      await query(client, '{ phoneNumbers { id } }');
      await expect(query(client, '{ phoneNumbers { id } }')).rejects.toEqual([{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } }]);
    } finally {
      await client.dispose();
    }
  });
});

describe('the client address of the failed-authentication limit', () => {
  it('is the entry the trusted proxy appended: what a client writes before it changes nothing', async () => {
    const a = await company();
    const send = (claimed: string, token: string) => t.request('GET', '/v1/campaigns/list', { token, headers: { 'x-forwarded-for': `${claimed}, 203.0.113.5` } });
    expect([(await send('198.51.100.1', 'sk_x')).status, (await send('198.51.100.2', 'sk_x')).status, (await send('198.51.100.3', 'sk_x')).status]).toEqual([401, 401, 401]);
    expectRefused(await send('198.51.100.4', a.key));
    okData(await t.request('GET', '/v1/campaigns/list', { token: a.key, headers: { 'x-forwarded-for': '198.51.100.4, 203.0.113.6' } }));
  });

  it("is the connection's peer with no trusted proxy (the default): X-Forwarded-For is ignored", async () => {
    const direct = await startTestApp({ AUTH_FAILURES_PER_MINUTE: '3' });
    try {
      const a = await company(direct);
      let claimed = 0;
      const send = (token: string) => direct.request('GET', '/v1/campaigns/list', { token, headers: { 'x-forwarded-for': `198.51.100.${++claimed}` } });
      expect(await statuses(3, () => send('sk_x'))).toEqual([401, 401, 401]);
      expectRefused(await send(a.key));
      expectRefused(await direct.request('GET', '/v1/campaigns/list', { token: a.key }));
    } finally {
      await direct.close();
    }
  });
});

describe('across replicas and windows', () => {
  it('holds one limit for two instances on one database', async () => {
    const second = await startTestApp({ ...LIMITS, DATABASE_URL: t.databaseUrl });
    try {
      const a = await company();
      expect(await statuses(3, () => list(a.key))).toEqual([200, 200, 200]);
      expect(await statuses(2, () => list(a.key, second))).toEqual([200, 200]);
      expectRefused(await list(a.key, second));
      expectRefused(await list(a.key));
    } finally {
      await second.close();
    }
  });

  it('serves a refused caller again once the window has passed', async () => {
    const short = await startTestApp({ ...LIMITS, RATE_LIMIT_WINDOW_S: '1', RATE_LIMIT_PER_CREDENTIAL: '2' });
    try {
      const a = await company(short);
      const refused = await waitFor('a refusal', async () => {
        const res = await list(a.key, short);
        return res.status === 429 ? res : undefined;
      });
      expectRefused(refused, 1);
      const served = await waitFor(
        'the window to end',
        async () => {
          const res = await list(a.key, short);
          return res.status === 200 ? res : undefined;
        },
        5_000,
      );
      okData(served);
    } finally {
      await short.close();
    }
  });
});
