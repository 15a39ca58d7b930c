import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { oneTenant, type Tenant } from '../../support/fixtures';
import jwt from 'jsonwebtoken';
import { JWT_SECRET, jsonOrUndefined, revokeKeys, startTestApp, type TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;

const METRICS_TOKEN = 'metrics-token-of-16-chars';

// Trust far longer than any test: a JWT refused here is refused for its exp alone.
beforeAll(async () => ({ t, a } = await oneTenant({ AUTH_TRUST_S: '3600', METRICS_TOKEN })));
afterAll(() => t.close());

/**
 * A request with several `Authorization` header lines, as a client or proxy may send them
 * (fetch would join them into one value). Answers the status and the parsed body.
 */
function withAuthorizations(method: string, path: string, values: string[], body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.url}${path}`, { method }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: jsonOrUndefined(text) }));
    });
    req.on('error', reject);
    req.setHeader('authorization', values);
    if (body !== undefined) req.setHeader('content-type', 'application/json');
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const UNAUTHORIZED = { status: 'error', message: 'Unauthorized', data: '' };

describe('two Authorization headers', () => {
  it.each([
    ['a valid key, then junk', () => [`Bearer ${a.key}`, 'Bearer junk']],
    ['junk, then a valid key', () => ['Bearer junk', `Bearer ${a.key}`]],
    ['the same valid key twice', () => [`Bearer ${a.key}`, `Bearer ${a.key}`]],
  ])('answer 401 on REST, GraphQL and /metrics: %s', async (_name, values) => {
    expect(await withAuthorizations('GET', '/v1/ai-agent', values())).toEqual({ status: 401, body: UNAUTHORIZED });
    const graphql = await withAuthorizations('POST', '/graphql', values(), { query: '{ phoneNumbers { id } }' });
    expect(graphql.status).toBe(401);
    expect(graphql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const metrics = [`Bearer ${METRICS_TOKEN}`, `Bearer ${METRICS_TOKEN}`];
    expect(await withAuthorizations('GET', '/metrics', metrics)).toEqual({ status: 401, body: UNAUTHORIZED });
  });

  it('one header still works', async () => {
    expect((await withAuthorizations('GET', '/v1/ai-agent', [`Bearer ${a.key}`])).status).toBe(200);
    expect((await withAuthorizations('GET', '/metrics', [`Bearer ${METRICS_TOKEN}`])).status).toBe(200);
  });
});

describe('the credential cache', () => {
  /** Waits until the wall clock is past `exp` (epoch seconds): a JWT's life is wall-clock time. */
  const waitPast = (exp: number) => sleep(Math.max(0, exp * 1000 - Date.now()) + 50);

  it('never accepts a JWT past its exp, on REST and GraphQL, although it was verified and cached before', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = t.jwtFor(a.companyId, { exp });
    expect((await t.request('GET', '/v1/ai-agent', { token })).status).toBe(200);
    expect((await t.request('POST', '/graphql', { token, body: { query: '{ phoneNumbers { id } }' } })).status).toBe(200);
    await waitPast(exp);
    expect(await t.request('GET', '/v1/ai-agent', { token })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect((await t.request('POST', '/graphql', { token, body: { query: '{ phoneNumbers { id } }' } })).status).toBe(401);
  });

  it('refuses a revoked API key within AUTH_TRUST_S of its revocation', async () => {
    const short = await startTestApp({ AUTH_TRUST_S: '1' });
    try {
      const { companyId, apiKey } = await short.company('Revoked');
      expect((await short.request('GET', '/v1/ai-agent', { token: apiKey })).status).toBe(200);
      await revokeKeys(short, companyId);
      await sleep(1_100); // the trust window is wall-clock time (AuthService reads Date.now()): no state to wait on
      expect(await short.request('GET', '/v1/ai-agent', { token: apiKey })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    } finally {
      await short.close();
    }
  });
});

describe('JWT lifetime, audience and issuer', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const status = async (app: TestApp, token: string) => (await app.request('GET', '/v1/ai-agent', { token })).status;
  const signed = (claims: object) => jwt.sign({ company_id: a.companyId, sub: 'user-1', ...claims } satisfies jwt.JwtPayload, JWT_SECRET, { algorithm: 'HS256' });

  it('refuses a JWT valid for longer than JWT_MAX_LIFETIME_S (a day by default), or without exp', async () => {
    // iat and exp from one reading of the clock: a second ticking between two readings would shift the lifetime.
    const iat = now();
    expect(await status(t, signed({ iat, exp: iat + 86_400 }))).toBe(200);
    expect(await status(t, signed({ iat, exp: iat + 86_401 }))).toBe(401);
    // Without iat, its lifetime counts from now.
    expect(await status(t, jwt.sign({ company_id: a.companyId, exp: now() + 2 * 86_400 }, JWT_SECRET, { algorithm: 'HS256', noTimestamp: true }))).toBe(401);
    expect(await status(t, signed({}))).toBe(401);
  });

  it('checks aud and iss when JWT_AUDIENCE and JWT_ISSUER are set', async () => {
    const strict = await startTestApp({ DATABASE_URL: t.databaseUrl, JWT_AUDIENCE: 'switchboard', JWT_ISSUER: 'https://auth.example.com', JWT_MAX_LIFETIME_S: '3600' });
    try {
      const exp = now() + 600;
      expect(await status(strict, signed({ exp, aud: 'switchboard', iss: 'https://auth.example.com' }))).toBe(200);
      expect(await status(strict, signed({ exp, aud: ['other', 'switchboard'], iss: 'https://auth.example.com' }))).toBe(200);
      expect(await status(strict, signed({ exp, iss: 'https://auth.example.com' }))).toBe(401);
      expect(await status(strict, signed({ exp, aud: 'other', iss: 'https://auth.example.com' }))).toBe(401);
      expect(await status(strict, signed({ exp, aud: 'switchboard' }))).toBe(401);
      expect(await status(strict, signed({ exp, aud: 'switchboard', iss: 'https://evil.example.com' }))).toBe(401);
      const iat = now();
      expect(await status(strict, signed({ iat, exp: iat + 3601, aud: 'switchboard', iss: 'https://auth.example.com' }))).toBe(401);
    } finally {
      await strict.close();
    }
  });
});
