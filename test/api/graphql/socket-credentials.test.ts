import { type Client, createClient } from 'graphql-ws';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { tenant, type Tenant } from '../../support/fixtures';
import { revokeKeys, startTestApp, type TestApp } from '../../support/harness';
import { closeCode, query, subscribe, wsClient } from './graphql-client';

let t: TestApp;
let a: Tenant;
const clients: Client[] = [];

beforeAll(async () => {
  // Trust far longer than any test: what closes a socket here is its JWT's exp alone.
  t = await startTestApp({ AUTH_TRUST_S: '3600', JOB_WORKERS: '0' });
  a = await tenant(t, 'A');
});
afterAll(async () => {
  await Promise.all(clients.map(async (c) => c.dispose()));
  await t.close();
});

const connect = (token: string, app: TestApp = t): Client => {
  const client = wsClient(app, token);
  clients.push(client);
  return client;
};

/** Resolves with the code the server closes an already connected client's socket with. */
const closed = (client: Client) => new Promise<number>((resolve) => client.on('closed', (event) => resolve((event as { code: number }).code)));

const CALL_CHANGED = 'subscription($callId: ID) { callStatusChanged(callId: $callId) { id } }';

const makeCall = async (token: string) =>
  (await t.request('POST', '/v1/calls/make-call', { token, body: { ai_agent_id: a.agent.id, call_from: a.number.phone_number, call_to: '+14155550123' } })).body.data.id as string;

describe('a socket outliving its credential', () => {
  it('is closed with 4403 when its JWT expires, ending its subscription', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const client = connect(t.jwtFor(a.companyId, { exp }));
    const sub = await subscribe(client, CALL_CHANGED);
    const code = closed(client);
    await makeCall(a.key);
    expect(await sub.next()).toEqual({ callStatusChanged: { id: expect.any(String) } });
    expect(await code).toBe(4403);
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
  });

  it('stays open across re-checks while its API key is valid; is closed with 4403 within AUTH_TRUST_S once it is revoked', async () => {
    const short = await startTestApp({ AUTH_TRUST_S: '1', JOB_WORKERS: '0' });
    try {
      const { companyId, apiKey } = await short.company('Revoked');
      const client = connect(apiKey, short);
      await subscribe(client, CALL_CHANGED);
      const code = closed(client);
      await sleep(2_500); // two re-checks at AUTH_TRUST_S, whose timer is wall-clock time: no state to wait on
      expect(await query(client, '{ phoneNumbers { id } }')).toEqual({ data: { phoneNumbers: [] } });
      await revokeKeys(short, companyId);
      const revokedAt = Date.now();
      expect(await code).toBe(4403);
      expect(Date.now() - revokedAt).toBeLessThan(2_000);
      expect(await closeCode(wsClient(short, apiKey))).toBe(4403);
    } finally {
      await short.close();
    }
  });
});

describe('many sockets on one credential', () => {
  it('are checked again once per AUTH_TRUST_S on a replica, not once each, and all closed with 4403 once the key is revoked', async () => {
    const short = await startTestApp({ AUTH_TRUST_S: '1', JOB_WORKERS: '0' });
    try {
      const { companyId, apiKey } = await short.company('Fleet');
      const fleet = Array.from({ length: 5 }, () => connect(apiKey, short));
      await Promise.all(fleet.map((client) => subscribe(client, CALL_CHANGED)));
      const codes = fleet.map(closed);
      // Nothing else runs here (no job workers, no requests; the sweeps are not counted):
      // what the service asks in 2.5 s is the credential's checks, two or three of them
      // for the five sockets (five sockets checking each would make ten or more).
      const lookups = await short.statements.count(() => sleep(2_500));
      expect(lookups).toBeGreaterThanOrEqual(2);
      expect(lookups).toBeLessThanOrEqual(3);
      await revokeKeys(short, companyId);
      expect(await Promise.all(codes)).toEqual([4403, 4403, 4403, 4403, 4403]);
    } finally {
      await short.close();
    }
  });
});

describe('connection_init', () => {
  it('refuses both authorization and Authorization (ambiguous) with 4403', async () => {
    const client = createClient({
      url: `${t.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${a.key}`, Authorization: 'Bearer junk' },
      retryAttempts: 0,
      lazy: true,
    });
    expect(await closeCode(client)).toBe(4403);
  });
});

describe('UUIDs in upper case', () => {
  it('a JWT whose company_id is in upper case hears its company, and a filter id in upper case matches', async () => {
    const token = t.jwtFor(a.companyId.toUpperCase());
    const all = await subscribe(connect(token), CALL_CHANGED);
    const callId = await makeCall(a.key);
    expect(await all.next()).toEqual({ callStatusChanged: { id: callId } });
    const one = await subscribe(connect(token), CALL_CHANGED, { callId: callId.toUpperCase() });
    await t.app.events.publish('call.updated', { companyId: a.companyId, callId, campaignId: null, workspace: 'default' });
    expect(await one.next()).toEqual({ callStatusChanged: { id: callId } });
  });
});
