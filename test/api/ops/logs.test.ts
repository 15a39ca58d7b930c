import pg from 'pg';
import { createLogger } from '../../../src/logger';
import { query, wsClient } from '../graphql/graphql-client';
import { FROM, okData, tenant, type Tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/** Every line the service logs, as written. */
const written: string[] = [];
const lines = () => written.map((line) => JSON.parse(line) as Record<string, any>);
const ofRequest = (id: string) => lines().filter((line) => line.request_id === id);

let t: TestApp;
let a: Tenant;
let db: pg.Client;

beforeAll(async () => {
  const logger = createLogger('debug', { destination: { write: (line: string) => written.push(line) } });
  t = await startTestApp({ SIM_RING_MS: '1', SIM_TALK_MS: '1' }, { logger });
  a = await tenant(t, 'A');
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  // Flows named "explode..." cannot be stored: an internal failure whose SQL holds the new flow's secret.
  await db.query(`CREATE FUNCTION explode() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.name LIKE 'explode%' THEN RAISE EXCEPTION 'refused by test trigger'; END IF; RETURN NEW; END $$;
    CREATE TRIGGER explode BEFORE INSERT ON webhook_flows FOR EACH ROW EXECUTE FUNCTION explode()`);
});
afterAll(async () => {
  await db.end();
  await t.close();
});

const FLOW = { steps: [{ step_number: 1, webhook_url: 'https://example.com/hook', webhook_method: 'POST', webhook_headers: { Authorization: 'Bearer customer-token-0123456789' } }] };

describe('structured logs', () => {
  it('tag every line of a request with its id and the caller, and never write a credential', async () => {
    const jwt = t.jwtFor(a.companyId, { sub: 'user-42' });
    const headers = (id: string) => ({ 'x-request-id': id, cookie: 'session=cookie-value-0123456789' });

    okData(await t.request('GET', '/v1/ai-agent', { token: a.key, headers: headers('req-api-key') }));
    const created = okData(await t.request('POST', '/v1/webhooks', { token: a.key, headers: headers('req-webhook'), body: { name: 'Hook', ...FLOW } }));
    expect(created.secret).toMatch(/^whsec_/);
    const failed = await t.request('POST', '/v1/webhooks', { token: a.key, headers: headers('req-error'), body: { name: 'explode', ...FLOW } });
    expect(failed.status).toBe(500);
    const viaGraphQL = await t.request('POST', '/graphql', {
      token: jwt,
      headers: headers('req-jwt'),
      body: { query: 'mutation { createWebhook(input: { name: "explode again" }) { id secret } }' },
    });
    expect(viaGraphQL.body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect((await t.request('GET', '/v1/ai-agent', { token: 'sk_not_a_key_0123456789', headers: headers('req-refused') })).status).toBe(401);

    // A request's lines all carry its id and, once authenticated, the caller's ids, deep in the stack too.
    for (const id of ['req-api-key', 'req-webhook', 'req-error']) {
      expect(ofRequest(id).length).toBeGreaterThan(0);
      for (const line of ofRequest(id)) expect(line).toMatchObject({ request_id: id, company_id: a.companyId, user_id: null });
    }
    for (const line of ofRequest('req-jwt')) expect(line).toMatchObject({ company_id: a.companyId, user_id: 'user-42' });
    const restFailure = ofRequest('req-error').find((line) => line.msg === 'request failed');
    expect(restFailure).toMatchObject({ level: 50, err: { type: 'DriverException' } });
    expect(restFailure!.err.message).toContain('refused by test trigger');
    expect(Object.keys(restFailure!.err).sort()).toEqual(['code', 'message', 'stack', 'type']);
    expect(ofRequest('req-jwt').find((line) => line.msg === 'graphql operation failed')).toMatchObject({ level: 50, err: { message: expect.stringContaining('refused by test trigger') } });
    expect(ofRequest('req-refused').map((line) => line.company_id)).toEqual([undefined]);

    // One info access line per request, with the route pattern, the status and the time taken.
    const access = (id: string) => ofRequest(id).filter((line) => line.msg === 'request');
    expect(access('req-api-key')).toEqual([expect.objectContaining({ level: 30, method: 'GET', route: '/v1/ai-agent', path: '/v1/ai-agent', status: 200, ms: expect.any(Number) })]);
    expect(access('req-error')).toEqual([expect.objectContaining({ method: 'POST', route: '/v1/webhooks', status: 500 })]);
    expect(access('req-jwt')).toEqual([expect.objectContaining({ method: 'POST', route: '/graphql', status: 200 })]);
    expect(access('req-refused')).toEqual([expect.objectContaining({ status: 401 })]);

    const text = written.join('');
    for (const secret of [a.key, jwt, created.secret, 'customer-token-0123456789', 'cookie-value-0123456789']) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/whsec_[A-Za-z0-9+/]{8}/);
    expect(text).not.toMatch(/\bsk_[\w-]{8}/);
  });

  it('log a GraphQL value its type cannot represent as an internal error, and answer it opaque', async () => {
    const contact = okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550177' } }));
    // A value no enum member stands for (as a row written by a newer release could hold).
    await db.query(`UPDATE contacts SET last_call_status = 'retired-status' WHERE id = $1`, [contact.id]);
    const res = await t.request('POST', '/graphql', {
      token: a.key,
      headers: { 'x-request-id': 'req-enum' },
      body: { query: `{ contact(id: "${contact.id}") { id lastCallStatus } }` },
    });
    expect(res.body.errors).toEqual([{ message: 'Internal server error', locations: expect.any(Array), path: ['contact', 'lastCallStatus'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
    expect(ofRequest('req-enum').find((line) => line.msg === 'graphql operation failed')).toMatchObject({
      level: 50,
      company_id: a.companyId,
      err: { message: 'Enum "LastCallStatus" cannot represent value: "retired-status"' },
    });
  });

  it('give the reason of every documented `error` answer at info, by request id', async () => {
    const reasonOf = (id: string) => ofRequest(id).find((line) => line.msg === 'documented error answer: its reason');
    const quirk = { status: 'error', message: 'error', data: '' };
    const update = (id: string, campaignId: string, body: unknown) => t.request('POST', `/compaign/v1/campaign/update/${campaignId}`, { token: a.key, headers: { 'x-request-id': id }, body });

    const invalid = await update('req-legacy-invalid', a.campaign.id, { time_zone: 'Mars/Olympus' });
    expect([invalid.status, invalid.body]).toEqual([200, quirk]);
    expect(reasonOf('req-legacy-invalid')).toMatchObject({
      level: 30,
      company_id: a.companyId,
      reason: { status: 400, message: 'Validation failed', fields: [{ field: 'time_zone', message: 'Must be an IANA time zone such as America/New_York' }] },
    });

    const unknown = await update('req-legacy-unknown', '00000000-0000-4000-8000-000000000000', { name: 'x' });
    expect([unknown.status, unknown.body]).toEqual([200, quirk]);
    expect(reasonOf('req-legacy-unknown')!.reason).toEqual({ status: 404, message: 'Not found' });

    const refused = await t.request('POST', '/v1/calls/make-call', {
      token: a.key,
      headers: { 'x-request-id': 'req-make-call' },
      body: { ai_agent_id: a.agent.id, call_from: '+12025550100', call_to: '+14155550123' },
    });
    expect([refused.status, refused.body]).toEqual([400, quirk]);
    expect(reasonOf('req-make-call')!.reason).toEqual({ status: 400, message: 'Validation failed', fields: [{ field: 'call_from', message: 'call_from is not a phone number of this company' }] });
  });

  it('tag each websocket operation with its own request id and the caller', async () => {
    const client = wsClient(t, t.jwtFor(a.companyId, { sub: 'user-ws' }));
    try {
      await query(client, 'query WsAgents { aiAgents { id } }');
      await query(client, 'query WsAgents { aiAgents { id } }');
    } finally {
      await client.dispose();
    }
    const operations = lines().filter((line) => line.msg === 'graphql websocket operation');
    expect(operations).toEqual([
      expect.objectContaining({ level: 30, operation: 'WsAgents', type: 'query', outcome: 'ok', company_id: a.companyId, user_id: 'user-ws', ms: expect.any(Number) }),
      expect.objectContaining({ operation: 'WsAgents', company_id: a.companyId }),
    ]);
    expect(operations[0].request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(operations[1].request_id).not.toBe(operations[0].request_id);
  });

  it('tag the lines of a job with the job and its company', async () => {
    // Calls cannot be dispatched: the dispatch job fails, and logs why.
    await db.query(`CREATE FUNCTION no_dispatch() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.dispatched_at IS NOT NULL AND OLD.dispatched_at IS NULL THEN RAISE EXCEPTION 'no dispatching today'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER no_dispatch BEFORE UPDATE ON calls FOR EACH ROW EXECUTE FUNCTION no_dispatch()`);
    okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' } }));
    const failure = await waitFor('a job failure logged', async () => lines().find((line) => line.msg === 'job failed; pg-boss retries it'));
    await db.query('DROP TRIGGER no_dispatch ON calls');
    expect(failure).toMatchObject({ level: 40, job: 'call.dispatch', job_id: expect.any(String), company_id: a.companyId, err: { message: expect.stringContaining('no dispatching today') } });
    expect(failure.request_id).toBeUndefined();
  });
});

describe('the logger', () => {
  it('redacts credentials by key wherever a caller logs them, one level deep', () => {
    const out: string[] = [];
    const logger = createLogger('info', { destination: { write: (line: string) => out.push(line) } });
    logger.info(
      {
        req: { headers: { authorization: 'Bearer one', cookie: 'two', 'x-api-key': 'three' } },
        headers: { authorization: 'Bearer four' },
        apiKey: 'five',
        webhook: { secret: 'six', signing_secret: 'seven', name: 'kept' },
        user: { password: 'eight', token: 'nine' },
        jwt: 'ten',
      },
      'line',
    );
    const line = JSON.parse(out[0]);
    expect(line.webhook).toEqual({ secret: '[redacted]', signing_secret: '[redacted]', name: 'kept' });
    for (const value of ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']) expect(out[0]).not.toContain(`"${value}"`);
  });

  it('masks credential shapes in error messages and keeps only safe error fields', () => {
    const out: string[] = [];
    const logger = createLogger('info', { destination: { write: (line: string) => out.push(line) } });
    const err = Object.assign(new Error('upstream said no to Bearer abc.def and key sk_live0123456789'), { body: { password: 'hunter2' }, status: 502 });
    logger.error({ err }, 'failed');
    const line = JSON.parse(out[0]);
    expect(line.err).toEqual({ type: 'Error', message: 'upstream said no to Bearer [redacted] and key sk_[redacted]', stack: expect.any(String), status: 502 });
    expect(out[0]).not.toContain('hunter2');
  });
});
