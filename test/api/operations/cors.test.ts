import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ConfigError, loadConfig } from '../../../src/config';
import { launchBrowser } from '../../support/browser';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * CORS as a browser enforces it: a page served by another local HTTP server (another origin)
 * calls the API with fetch() in headless Chromium (test/support/browser.ts). Page origins: http://localhost:<port> (the
 * allowed one where the API restricts origins) and http://127.0.0.1:<port> (not allowed).
 */

/** What a page's script could read of an answer, or the error fetch() rejected with. */
interface Seen {
  status?: number;
  body?: unknown;
  headers?: Record<string, string | null>;
  error?: string;
}

/** A one-page HTTP server: the dashboard's origin. */
async function servePage(): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>dashboard</title><p>dashboard</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs fetch(url, init) in the page and reports what the page's script could read. */
function browserFetch(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Seen> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const res = await fetch(url, init);
        const names = ['x-request-id', 'retry-after', 'content-type', 'allow'];
        const headers = Object.fromEntries(names.map((n) => [n, res.headers.get(n)]));
        return { status: res.status, body: JSON.parse(await res.text()), headers };
      } catch (err) {
        return { error: String(err) };
      }
    },
    { url, init },
  );
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('browser dashboards on another origin (CORS)', () => {
  let browser: Browser;
  let dashboard: { port: number; close(): Promise<void> };
  let page: Page;

  beforeAll(async () => {
    dashboard = await servePage();
    browser = await launchBrowser();
    page = await browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
  });

  describe('with the default CORS_ORIGINS (*)', () => {
    let t: TestApp;
    let key: string;

    beforeAll(async () => {
      t = await startTestApp();
      key = (await t.company()).apiKey;
      await page.goto(`http://localhost:${dashboard.port}/`);
    }, 60_000);
    afterAll(() => t?.close());

    it('lets a page on another origin call REST with a bearer token and read the answer and X-Request-Id', async () => {
      const seen = await browserFetch(page, `${t.url}/v1/phone-numbers`, { headers: { ...bearer(key), 'x-request-id': 'dash-1' } });
      expect(seen).toEqual({ status: 200, body: { status: 'ok', message: 'ok', data: [] }, headers: expect.objectContaining({ 'x-request-id': 'dash-1' }) });
    });

    it('lets the page send a JSON body and read the validation envelope', async () => {
      const seen = await browserFetch(page, `${t.url}/v1/phone-numbers`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json', 'idempotency-key': 'k1' },
        body: JSON.stringify({ phone_number: 'not a number' }),
      });
      expect(seen.status).toBe(400);
      expect(seen.body).toMatchObject({ status: 'error', message: 'Validation failed' });
    });

    it('lets the page read a 401 envelope', async () => {
      const seen = await browserFetch(page, `${t.url}/v1/phone-numbers`, { headers: bearer('sk_wrong') });
      expect(seen).toMatchObject({ status: 401, body: { status: 'error', message: 'Unauthorized', data: '' } });
    });

    it('lets the page query GraphQL and read /openapi.json', async () => {
      const gql = await browserFetch(page, `${t.url}/graphql`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ phoneNumbers { id } }' }),
      });
      expect(gql).toMatchObject({ status: 200, body: { data: { phoneNumbers: [] } } });
      const doc = await browserFetch(page, `${t.url}/openapi.json`);
      expect(doc).toMatchObject({ status: 200, body: { openapi: expect.stringMatching(/^3\.1/) } });
    });

    it("answers a preflight 204 with the allowed methods and headers, tracing and Apollo Client's included", async () => {
      const tracing = ['traceparent', 'tracestate', 'baggage', 'sentry-trace', 'apollo-require-preflight', 'x-apollo-operation-name'];
      const res = await fetch(`${t.url}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: 'https://dash.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': ['authorization', 'content-type', ...tracing].join(',') },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(['authorization', 'content-type', 'idempotency-key', 'x-request-id', ...tracing]);
    });

    it('lets the page send the tracing headers a browser SDK adds, and read Allow on a 405', async () => {
      const seen = await browserFetch(page, `${t.url}/v1/phone-numbers`, {
        method: 'PUT',
        headers: {
          ...bearer(key),
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
          tracestate: 'a=1',
          baggage: 'k=v',
          'sentry-trace': '0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1',
        },
      });
      expect(seen).toMatchObject({ status: 405, body: { status: 'error', message: 'Method not allowed', data: '' }, headers: expect.objectContaining({ allow: expect.stringContaining('GET') }) });
    });

    it('keeps the envelope of unknown routes (404) and methods (405), with CORS headers on it', async () => {
      const cases = [
        ['GET', '/v1/nothing-here', 404, 'Not found'],
        ['DELETE', '/openapi.json', 405, 'Method not allowed'],
      ] as const;
      for (const [method, path, status, message] of cases) {
        const res = await t.request(method, path, { headers: { origin: 'https://dash.example.com' } });
        expect(res.status).toBe(status);
        expect(res.body).toEqual({ status: 'error', message, data: '' });
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After,X-Request-Id,Idempotent-Replayed,Allow');
      }
    });
  });

  describe('with CORS_ORIGINS naming the dashboard only', () => {
    let t: TestApp;
    let allowed: string;

    beforeAll(async () => {
      allowed = `http://localhost:${dashboard.port}`;
      t = await startTestApp({ CORS_ORIGINS: `https://other.example.com, ${allowed}`, RATE_LIMIT_PER_CREDENTIAL: '2' });
    }, 60_000);
    afterAll(() => t?.close());

    it('lets the allowed origin read a 429 and its Retry-After', async () => {
      const { apiKey } = await t.company();
      await page.goto(`${allowed}/`);
      const answers: Seen[] = [];
      for (let i = 0; i < 3; i++) answers.push(await browserFetch(page, `${t.url}/v1/phone-numbers`, { headers: bearer(apiKey) }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
      expect(answers[2].body).toEqual({ status: 'error', message: 'Too many requests', data: '' });
      expect(Number(answers[2].headers?.['retry-after'])).toBeGreaterThan(0);
    });

    it('gets the browser to block a page on an origin not listed, and sends that origin no CORS header', async () => {
      const { apiKey } = await t.company();
      await page.goto(`http://127.0.0.1:${dashboard.port}/`);
      const seen = await browserFetch(page, `${t.url}/v1/phone-numbers`, { headers: bearer(apiKey) });
      expect(seen.error).toMatch(/Failed to fetch/);
      const simple = await browserFetch(page, `${t.url}/openapi.json`);
      expect(simple.error).toMatch(/Failed to fetch/);

      const res = await t.request('GET', '/v1/phone-numbers', { token: apiKey, headers: { origin: `http://127.0.0.1:${dashboard.port}` } });
      expect(res.status).toBe(200);
      expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  });

  it('refuses a CORS_ORIGINS that is not * or a list of origins, naming it', () => {
    expect(loadConfig({}).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com,http://localhost:5173' }).corsOrigins).toEqual(['https://a.example.com', 'http://localhost:5173']);
    for (const bad of ['https://a.example.com/', 'a.example.com', 'https://a.example.com/app', '*,https://a.example.com', 'ftp://a.example.com']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS: must be \*/);
    }
  });
});
