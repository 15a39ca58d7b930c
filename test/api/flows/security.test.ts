import { Webhook } from 'standardwebhooks';
import { okData } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { gql } from '../graphql/graphql-client';
import { FLOW_ENV, flowApi, Receiver } from './support';

let rx: Receiver;

beforeAll(async () => {
  rx = await Receiver.start();
});
afterAll(() => rx.close());

describe('signing (Standard Webhooks)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp(FLOW_ENV);
    key = (await t.company('Signer')).apiKey;
  });
  afterAll(() => t.close());

  it('signs every request so that a receiver verifies it with the flow secret; a rotated secret replaces the old one', async () => {
    const api = flowApi(t, key);
    const flow = await api.create({
      steps: [
        { step_number: 1, webhook_url: `${rx.url}/signed/post`, webhook_body: { hello: '{{who}}' } },
        { step_number: 2, webhook_url: `${rx.url}/signed/get`, webhook_method: 'GET' },
      ],
    });
    await api.settled(flow.id, (await api.trigger(flow.id, { who: 'world' })).id);
    const [post] = rx.at('/signed/post');
    const [get] = rx.at('/signed/get');
    const headers = (r: typeof post) => r.headers as Record<string, string>;
    expect(new Webhook(flow.secret).verify(post.body, headers(post))).toEqual({ hello: 'world' });
    expect(() => new Webhook(flow.secret).verify(get.body, headers(get))).not.toThrow();
    expect(headers(post)['webhook-id']).toMatch(/^msg_[0-9a-f-]{36}_1$/);
    expect(Math.abs(Number(headers(post)['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);

    const rotated = okData(await t.request('POST', `/v1/webhooks/${flow.id}/rotate-secret`, { token: key }));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(flow.secret);
    expect(rotated.id).toBe(flow.id);
    expect(okData(await t.request('GET', `/v1/webhooks/${flow.id}`, { token: key }))).not.toHaveProperty('secret');
    await api.settled(flow.id, (await api.trigger(flow.id, { who: 'again' })).id);
    const resent = rx.at('/signed/post')[1];
    expect(new Webhook(rotated.secret).verify(resent.body, headers(resent))).toEqual({ hello: 'again' });
    expect(() => new Webhook(flow.secret).verify(resent.body, headers(resent))).toThrow();
  });
});

describe('secret predefined variables', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp(FLOW_ENV);
    key = (await t.company('Keeper')).apiKey;
  });
  afterAll(() => t.close());

  it('read back masked (REST and GraphQL), still fill steps, and keep their value when an update sends the mask back', async () => {
    const api = flowApi(t, key);
    const flow = await api.create({
      predefinedVariables: [
        { name: 'api_token', value: 'tok_live_1' },
        { name: 'hook', value: 'h-1', secret: true },
        { name: 'region', value: 'eu' },
      ],
      steps: [{ step_number: 1, webhook_url: `${rx.url}/secret`, webhook_headers: { Authorization: 'Bearer {{api_token}}' }, webhook_body: { hook: '{{hook}}', region: '{{region}}' } }],
    });
    const masked = [
      { name: 'api_token', value: '********', secret: true },
      { name: 'hook', value: '********', secret: true },
      { name: 'region', value: 'eu', secret: false },
    ];
    expect(flow.predefinedVariables).toEqual(masked);
    expect(okData(await t.request('GET', `/v1/webhooks/${flow.id}`, { token: key })).predefinedVariables).toEqual(masked);
    const read = await gql(t, 'query($id: ID!) { webhook(id: $id) { predefinedVariables { name value secret } } }', { id: flow.id }, key);
    expect(read.data.webhook.predefinedVariables).toEqual(masked);

    // The console's round trip: what was read, with one value changed.
    const sent = masked.map((v) => (v.name === 'region' ? { ...v, value: 'us' } : v));
    const updated = okData(await t.request('PATCH', `/v1/webhooks/${flow.id}`, { token: key, body: { predefinedVariables: sent } }));
    expect(updated.predefinedVariables).toEqual([...masked.slice(0, 2), { name: 'region', value: 'us', secret: false }]);
    await api.settled(flow.id, (await api.trigger(flow.id)).id);
    const [received] = rx.at('/secret');
    expect(received.headers.authorization).toBe('Bearer tok_live_1');
    expect(JSON.parse(received.body)).toEqual({ hook: 'h-1', region: 'us' });
  });
});

describe('SSRF guard (no allow-list)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ JOB_POLL_MS: '50' });
    key = (await t.company('Guarded')).apiKey;
  });
  afterAll(() => t.close());

  it('refuses loopback, private, link-local and metadata addresses, also behind a host name, without retrying', async () => {
    const port = new URL(rx.url).port;
    const targets = [
      [`http://127.0.0.1:${port}/ssrf`, 'Blocked: 127.0.0.1 is a loopback address'],
      ['http://10.0.0.1/ssrf', 'Blocked: 10.0.0.1 is a private address'],
      ['http://169.254.169.254/latest/meta-data/', 'Blocked: 169.254.169.254 is a link-local address (cloud metadata services live there)'],
      [`http://[::1]:${port}/ssrf`, 'Blocked: ::1 is a loopback address'],
      [`http://localhost:${port}/ssrf`, 'Blocked: localhost (127.0.0.1) is a loopback address'],
      [`http://[::ffff:127.0.0.1]:${port}/ssrf`, 'Blocked: ::ffff:7f00:1 is a loopback address'],
    ];
    const api = flowApi(t, key);
    const flow = await api.create({ max_retries: 0, steps: targets.map(([url], i) => ({ step_number: i + 1, webhook_url: url, retry_limit: 2 })) });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.status).toBe('failed');
    done.steps.forEach((step: any, i: number) => {
      expect(step).toMatchObject({ status: 'failed', tries: 1, response: null });
      expect(step.error).toMatch(new RegExp(`^${targets[i][1].replace(/[()[\].]/g, '\\$&')}`));
      expect(step.error).toMatch(/WEBHOOK_ALLOWED_HOSTS/);
    });
    expect(rx.at('/ssrf')).toHaveLength(0);
  });

  it('refuses IPv4 addresses written inside IPv6, and a blocked step gets no new attempt either', async () => {
    const port = new URL(rx.url).port;
    const targets = [
      [`http://[::127.0.0.1]:${port}/ssrf6`, 'Blocked: ::7f00:1 is a loopback address (IPv4 127.0.0.1 inside IPv6)'],
      ['http://[::a9fe:a9fe]/latest/meta-data/', 'Blocked: ::a9fe:a9fe is a link-local address (cloud metadata services live there) (IPv4 169.254.169.254 inside IPv6)'],
      [`http://[64:ff9b::127.0.0.1]:${port}/ssrf6`, 'Blocked: 64:ff9b::7f00:1 is a loopback address'],
      [`http://[2002:7f00:1::1]:${port}/ssrf6`, 'Blocked: 2002:7f00:1::1 is a loopback address (IPv4 127.0.0.1 inside IPv6)'],
    ];
    const api = flowApi(t, key);
    const steps = targets.map(([url], i) => ({ step_number: i + 1, webhook_url: url, retry_limit: 2 }));
    const flow = await api.create({ max_retries: 3, retry_delay: 1, retry_delay_unit: 'seconds', steps });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done).toMatchObject({ status: 'failed', attempt_number: 1, next_retry_at: null });
    expect(done.steps.map((s: any) => [s.status, s.tries, s.error])).toEqual(targets.map(([, error]) => ['failed', 1, expect.stringContaining(error)]));
    expect(rx.at('/ssrf6')).toHaveLength(0);
  });
});

describe('allow-list', () => {
  it('opens listed hosts only: 127.0.0.1 listed does not open localhost', async () => {
    const t = await startTestApp(FLOW_ENV);
    try {
      const api = flowApi(t, (await t.company('Listed')).apiKey);
      const port = new URL(rx.url).port;
      const flow = await api.create({
        max_retries: 0,
        steps: [
          { step_number: 1, webhook_url: `http://127.0.0.1:${port}/listed` },
          { step_number: 2, webhook_url: `http://localhost:${port}/listed` },
        ],
      });
      const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
      expect(done.steps.map((s: any) => s.status)).toEqual(['success', 'failed']);
      expect(rx.at('/listed')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
