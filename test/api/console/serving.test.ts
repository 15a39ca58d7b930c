import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { consolePages } from '../../../src/http/console';
import { createLogger } from '../../../src/logger';
import { startTestApp, type TestApp } from '../../support/harness';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('the web console over HTTP', () => {
  it('redirects / and /console to its page, served with the policy of /docs (and audio from blob: URLs) and never cached', async () => {
    for (const from of ['/', '/console']) {
      const res = await fetch(`${t.url}${from}`, { redirect: 'manual' });
      expect([res.status, res.headers.get('location')]).toEqual([302, '/console/']);
    }
    const page = await fetch(`${t.url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toBe(`${(await fetch(`${t.url}/docs`)).headers.get('content-security-policy')}; media-src blob:`);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>/);
  });

  it('serves its hashed files for good, from this origin only, and answers others 404 in the envelope', async () => {
    const html = await (await fetch(`${t.url}/console/`)).text();
    const files = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    // The favicon: browsers ask for one (a 404 otherwise).
    expect(files.some((f) => f.endsWith('.svg'))).toBe(true);
    const types: Record<string, RegExp> = { js: /^application\/javascript/, css: /^text\/css/, svg: /^image\/svg\+xml$/ };
    for (const file of files) {
      const res = await fetch(`${t.url}${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toMatch(types[file.split('.').at(-1)!]);
    }
    const missing = await t.request('GET', '/console/assets/nothing-here.js');
    expect([missing.status, missing.body]).toEqual([404, { status: 'error', message: 'Not found', data: '' }]);
  });

  it('answers 503 with how to build it when the build is missing, in the envelope', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'console-'));
    const app = new Koa().use(consolePages(createLogger('silent'), empty));
    const handle = app.callback();
    const server = http.createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/console/`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'error', message: 'The web console is not built: run npm start, or node console/build.mjs', data: '' });
    } finally {
      server.close();
      await rm(empty, { recursive: true });
    }
  });
});
