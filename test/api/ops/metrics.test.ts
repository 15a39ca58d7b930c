import type http from 'node:http';
import type { Client } from 'graphql-ws';
import { loadConfig } from '../../../src/config';
import { fromLoopback } from '../../../src/rest/metrics.routes';
import { gql, gqlData, query, subscribe, wsClient } from '../graphql/graphql-client';
import { FROM, okData, oneTenant, type Tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { parseExposition, type Sample, valueOf } from './prometheus';

const TOKEN = 'metrics-token-for-tests-0123456789';

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  ({ t, a } = await oneTenant({ SIM_RING_MS: '1', SIM_TALK_MS: '1' }));
});
afterAll(() => t.close());

async function scrape(app: TestApp = t, token?: string): Promise<Sample[]> {
  const res = await app.request('GET', '/metrics', { token });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(res.text);
}

const count = (samples: Sample[], name: string, labels: Record<string, string>) => valueOf(samples, `${name}_count`, labels);

describe('GET /metrics', () => {
  it('times HTTP requests by route pattern, never by raw path', async () => {
    const call = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' } }));
    okData(await t.request('GET', `/v1/calls/${call.id}`, { token: a.key }));
    okData(await t.request('GET', `/v1/calls/${call.id}`, { token: a.key }));
    await t.request('GET', '/v1/calls/00000000-0000-4000-8000-000000000000', { token: a.key });
    await t.request('GET', '/no/such/path/123');

    const samples = await scrape();
    const http = 'switchboard_http_request_duration_seconds';
    expect(count(samples, http, { route: '/v1/calls/:id', method: 'GET', status: '200' })).toBe(2);
    expect(count(samples, http, { route: '/v1/calls/:id', method: 'GET', status: '404' })).toBe(1);
    expect(count(samples, http, { route: '/v1/calls/make-call', method: 'POST', status: '200' })).toBe(1);
    expect(count(samples, http, { route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(valueOf(samples, `${http}_bucket`, { route: '/v1/calls/:id', method: 'GET', status: '200', le: '+Inf' })).toBe(2);
    const routes = new Set(samples.filter((s) => s.name.startsWith(http)).map((s) => s.labels.route));
    expect([...routes].filter((r) => r?.includes(call.id) || r?.includes('/no/such'))).toEqual([]);
  });

  it('counts calls by status from the database once a call completes, and live calls', async () => {
    const call = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550124' } }));
    await waitFor('the call to complete', async () => ((await t.request('GET', `/v1/calls/${call.id}`, { token: a.key })).body.data.call_status === 'completed' ? true : undefined));
    const samples = await waitFor('every call of this file to end', async () => {
      const s = await scrape();
      return valueOf(s, 'switchboard_calls_live') === 0 ? s : undefined;
    });
    expect(valueOf(samples, 'switchboard_calls', { status: 'completed' })).toBe(2);
    for (const status of ['pstn-queued', 'ringing', 'in-progress', 'busy', 'no-answer', 'failed', 'canceled']) {
      expect(valueOf(samples, 'switchboard_calls', { status })).toBe(0);
    }
  });

  it('counts flow executions by status and shows each job queue with its depth', async () => {
    okData(await t.request('POST', `/v1/webhooks/${a.flow.id}/trigger`, { token: a.key, body: {} }));
    const samples = await scrape();
    const executions = ['scheduled', 'in_progress', 'success', 'failed'].map((status) => valueOf(samples, 'switchboard_flow_executions', { status }));
    expect(executions.every((n) => typeof n === 'number')).toBe(true);
    expect(executions.reduce((sum, n) => sum! + n!, 0)).toBe(1);
    for (const queue of ['call.dispatch', 'call.place', 'flow.step']) {
      expect(valueOf(samples, 'switchboard_job_queue_depth', { queue, state: 'ready' })).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, 'switchboard_job_queue_depth', { queue, state: 'scheduled' })).toBeGreaterThanOrEqual(0);
    }
  });

  it('times GraphQL operations over HTTP by name, type and outcome', async () => {
    await gqlData(t, 'query Numbers { phoneNumbers { id } }', {}, a.key);
    await gqlData(t, '{ phoneNumbers { id } }', {}, a.key);
    // Lookups by id answer null for an unknown id; a mutation on one is still NOT_FOUND.
    const missing = await gql(t, 'mutation CancelOne($id: ID!) { cancelCall(id: $id) { id } }', { id: '00000000-0000-4000-8000-000000000000' }, a.key);
    expect(missing.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    await gql(t, 'query Broken { nope }', {}, a.key);

    const samples = await scrape();
    const graphql = 'switchboard_graphql_operation_duration_seconds';
    expect(count(samples, graphql, { operation: 'Numbers', type: 'query', outcome: 'ok', transport: 'http' })).toBe(1);
    expect(count(samples, graphql, { operation: 'anonymous', type: 'query', outcome: 'ok', transport: 'http' })).toBe(1);
    expect(count(samples, graphql, { operation: 'CancelOne', type: 'mutation', outcome: 'error', transport: 'http' })).toBe(1);
    expect(count(samples, graphql, { operation: 'unknown', type: 'unknown', outcome: 'error', transport: 'http' })).toBe(1);
    expect(count(samples, 'switchboard_http_request_duration_seconds', { route: '/graphql', method: 'POST', status: '200' })).toBe(3);
  });

  it('follows websocket connections and subscriptions, and times websocket operations', async () => {
    const before = await scrape();
    expect(valueOf(before, 'switchboard_websocket_connections')).toBe(0);
    expect(valueOf(before, 'switchboard_graphql_subscriptions_active')).toBe(0);

    const client: Client = wsClient(t, a.key);
    const sub = await subscribe(client, 'subscription Live { callStatusChanged(workspace: "metrics") { id } }');
    await query(client, 'query Agents { aiAgents { id } }');
    const open = await scrape();
    expect(valueOf(open, 'switchboard_websocket_connections')).toBe(1);
    expect(valueOf(open, 'switchboard_graphql_subscriptions_active')).toBe(1);
    const graphql = 'switchboard_graphql_operation_duration_seconds';
    expect(count(open, graphql, { operation: 'Live', type: 'subscription', outcome: 'ok', transport: 'ws' })).toBe(1);
    expect(count(open, graphql, { operation: 'Agents', type: 'query', outcome: 'ok', transport: 'ws' })).toBe(1);

    sub.close();
    await waitFor('the subscription to end', async () => (valueOf(await scrape(), 'switchboard_graphql_subscriptions_active') === 0 ? true : undefined));
    await client.dispose();
    await waitFor('the socket to close', async () => (valueOf(await scrape(), 'switchboard_websocket_connections') === 0 ? true : undefined));
  });

  it('includes the process metrics, prefixed', async () => {
    const samples = await scrape();
    expect(valueOf(samples, 'switchboard_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'switchboard_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'switchboard_campaign_dials_total')).toBe(0);
  });

  it('keeps each app instance to its own registry', async () => {
    const other = await startTestApp();
    try {
      const samples = await scrape(other);
      expect(count(samples, 'switchboard_http_request_duration_seconds', { route: '/v1/calls/make-call', method: 'POST', status: '200' })).toBeUndefined();
      expect(samples.some((s) => s.name === 'switchboard_graphql_operation_duration_seconds_count')).toBe(false);
      expect(count(await scrape(), 'switchboard_http_request_duration_seconds', { route: '/metrics', method: 'GET', status: '200' })).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});

/** GET /metrics of `app` over loopback, with `headers`. */
async function scrapeWith(app: TestApp, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(new URL('/metrics', app.url), { headers });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined, text };
}

/** A request as Node hands it to the route, from `peer` (tests reach only loopback over the network). */
const requestFrom = (peer: string | undefined, headers: Record<string, string> = {}) => ({ socket: { remoteAddress: peer }, headers }) as unknown as http.IncomingMessage;

const FORBIDDEN = { status: 'error', message: 'Forbidden', data: '' };
const UNAUTHORIZED = { status: 'error', message: 'Unauthorized', data: '' };

describe('who may scrape', () => {
  it('answers only loopback clients without METRICS_TOKEN: 403 to a proxy on this machine relaying someone else', async () => {
    const open = await startTestApp();
    try {
      expect((await scrapeWith(open)).status).toBe(200);
      for (const headers of [{ 'x-forwarded-for': '203.0.113.7' }, { forwarded: 'for=203.0.113.7' }, { 'x-real-ip': '203.0.113.7' }] as Record<string, string>[]) {
        expect(await scrapeWith(open, headers)).toMatchObject({ status: 403, body: FORBIDDEN });
      }
    } finally {
      await open.close();
    }
  });

  it("takes the socket's peer for the client, never what forwarding headers claim", () => {
    expect(fromLoopback(requestFrom('127.0.0.1'))).toBe(true);
    expect(fromLoopback(requestFrom('::1'))).toBe(true);
    expect(fromLoopback(requestFrom('::ffff:127.0.0.1'))).toBe(true);
    for (const peer of ['203.0.113.7', '10.0.0.5', '::ffff:192.0.2.1', '2001:db8::1', undefined]) {
      for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }] as Record<string, string>[]) {
        expect(fromLoopback(requestFrom(peer, headers))).toBe(false);
      }
    }
  });
});

describe('METRICS_TOKEN', () => {
  it('makes /metrics answer only the bearer of the token, from anywhere; refusals stay in the envelope', async () => {
    const guarded = await startTestApp({ METRICS_TOKEN: TOKEN });
    try {
      for (const token of [undefined, 'wrong-token', `${TOKEN}x`, a.key]) {
        const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
        expect(await scrapeWith(guarded, headers)).toMatchObject({ status: 401, body: UNAUTHORIZED });
      }
      expect(valueOf(await scrape(guarded, TOKEN), 'switchboard_calls_live')).toBe(0);
      // A relayed scrape with the token is answered: the token holds from any address.
      const relayed = await scrapeWith(guarded, { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.7' });
      expect(relayed.status).toBe(200);
      expect(valueOf(parseExposition(relayed.text), 'switchboard_calls_live')).toBe(0);
    } finally {
      await guarded.close();
    }
  });

  it('is validated at start', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN: must be at least 16 characters');
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it somewhere' })).toThrow('METRICS_TOKEN: must not contain spaces');
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
  });
});
