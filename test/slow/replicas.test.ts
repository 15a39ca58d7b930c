import type { Client } from 'graphql-ws';
import pg from 'pg';
import { subscribe, type Subscription, wsClient } from '../api/graphql/graphql-client';
import { createTestDatabase } from '../support/harness';
import { demoKey, killReplicas, listening, type Replica, spawnReplica, stopReplica } from '../support/replicas';
import { waitFor } from '../support/wait';

// The production shape without Docker: three replicas of the compiled service, each an OS
// process of its own, on one new database, as docker-compose.yml runs them behind nginx.

const CALLS = 30;
/** Events published per call that completes: created, ringing, in-progress, completed. */
const EVENTS_PER_CALL = 4;

const ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  SEED_DEMO: '1',
  SIM_RING_MS: '100',
  SIM_TALK_MS: '200',
  JOB_POLL_MS: '50',
};

const CALL_CHANGED = 'subscription { callStatusChanged { id callStatus callSid } }';

interface CallEvent {
  callStatusChanged: { id: string; callStatus: string; callSid: string };
}

let db: { url: string; drop(): Promise<void> };
let sql: pg.Client;
const replicas: Replica[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
}, 30_000);

afterAll(async () => {
  await Promise.all(clients.map(async (c) => c.dispose()));
  await killReplicas(replicas);
  await sql.end();
  await db.drop();
}, 30_000);

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await sql.query(text, values)).rows as T[];
}

describe('three replicas as separate processes on one database', () => {
  let key: string;

  it('start together on an empty database: migrated once, one demo company, one banner', async () => {
    for (const name of ['a', 'b', 'c']) replicas.push(await spawnReplica(name, db.url, ENV));
    await Promise.all(replicas.map((r) => listening(r)));
    const banners = replicas.filter((r) => r.output.stdout.includes('Demo company created'));
    expect(banners).toHaveLength(1);
    key = demoKey(banners[0].output.stdout);
    expect(await rows('select name from companies')).toEqual([{ name: 'Demo Company' }]);
  }, 90_000);

  it('complete each call exactly once, whichever replica took it, and every subscriber hears every call', async () => {
    const agents = (await (await fetch(`${replicas[0].url}/v1/ai-agent`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { id: string; name: string }[] };
    const agent = agents.data.find((a) => a.name === 'Demo appointment reminder')!;

    // One subscriber on each replica, registered before the first call is made.
    const subscriptions: Subscription<CallEvent>[] = [];
    for (const r of replicas) {
      const client = wsClient(r, key);
      clients.push(client);
      subscriptions.push(await subscribe<CallEvent>(client, CALL_CHANGED));
    }

    // Round-robin, all at once, as the load balancer spreads them.
    const made = await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        const res = await fetch(`${replicas[i % replicas.length].url}/v1/calls/make-call`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ai_agent_id: agent.id, call_from: '+14155550100', call_to: `+1415555${String(2000 + i)}` }),
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { data: { id: string } }).data.id;
      }),
    );
    const ids = new Set(made);
    expect(ids.size).toBe(CALLS);

    await waitFor(
      'every call to complete',
      async () => {
        const [row] = await rows<{ n: number }>(`select count(*)::int as n from calls where call_status = 'completed'`);
        return row.n === CALLS ? true : undefined;
      },
      60_000,
      100,
    );

    // One terminal status and one provider sid per call.
    const calls = await rows<{ id: string; call_status: string; call_sid: string }>('select id, call_status, call_sid from calls');
    expect(calls).toHaveLength(CALLS);
    for (const c of calls) {
      expect(ids.has(c.id)).toBe(true);
      expect(c.call_status).toBe('completed');
      expect(c.call_sid).toMatch(/^SIM[0-9a-f]{32}$/);
    }
    expect(new Set(calls.map((c) => c.call_sid)).size).toBe(CALLS);

    // Each call was placed by the dispatch that picked it: none was left for the sweep's
    // `call.place` job. Each transition is applied once: the events below, four per call.
    const [placeJobs] = await rows<{ n: number }>(`select count(*)::int as n from (select name from pgboss.job union all select name from pgboss.archive) j where name = 'call.place'`);
    expect(placeJobs.n).toBe(0);

    // Each replica's subscriber hears every call's events, wherever they happened: each
    // event published once on the bus reaches every replica once.
    for (const [i, sub] of subscriptions.entries()) {
      const heard = () => {
        const counts = new Map<string, number>();
        for (const e of sub.received) counts.set(e.callStatusChanged.id, (counts.get(e.callStatusChanged.id) ?? 0) + 1);
        return counts;
      };
      await waitFor(
        () => `replica ${replicas[i].name}'s subscriber to hear ${CALLS * EVENTS_PER_CALL} events (${sub.received.length} so far)`,
        async () => (sub.received.length >= CALLS * EVENTS_PER_CALL ? true : undefined),
        15_000,
      );
      expect([...heard().keys()].sort()).toEqual([...ids].sort());
      expect([...heard().values()].every((n) => n === EVENTS_PER_CALL)).toBe(true);
      const completed = new Set(sub.received.filter((e) => e.callStatusChanged.callStatus === 'COMPLETED').map((e) => e.callStatusChanged.id));
      expect(completed).toEqual(ids);
    }
  }, 120_000);

  it('each replica stops cleanly on SIGTERM', async () => {
    await Promise.all(clients.splice(0).map(async (c) => c.dispose()));
    const codes = await Promise.all(replicas.map((r) => stopReplica(r)));
    expect(codes).toEqual([0, 0, 0]);
  }, 30_000);
});
