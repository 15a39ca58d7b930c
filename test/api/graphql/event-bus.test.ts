import pg from 'pg';
import type { EventBus, Topics } from '../../../src/services/platform/events';
import { PgEventBus } from '../../../src/services/platform/events/pg-event-bus';
import { RedisEventBus } from '../../../src/services/platform/events/redis-event-bus';
import { createTestDatabase } from '../../support/harness';
import { waitFor } from '../../support/wait';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const event = (n: number): Topics['call.updated'] => ({ companyId: `company-${n}`, callId: `call-${n}`, campaignId: null, workspace: 'default' });

/**
 * Resolves with the `call.updated` payload of `callId` once the bus delivers it (other test
 * files may publish on the same Redis meanwhile).
 */
const nextEvent = (bus: EventBus, callId: string) =>
  new Promise<Topics['call.updated']>((resolve) => {
    const off = bus.subscribe('call.updated', (payload) => {
      if (payload.callId !== callId) return;
      off();
      resolve(payload);
    });
  });

let db: { url: string; drop(): Promise<void> };
/** The publishers' pool, as the app's side pool. */
let sidePool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  sidePool = new pg.Pool({ connectionString: db.url, max: 2 });
});
afterAll(async () => {
  await sidePool.end();
  await db.drop();
});

describe.each([
  ['PostgreSQL', (onError: (err: unknown, context: string) => void) => PgEventBus.start(db.url, sidePool, onError)],
  ['Redis', (onError: (err: unknown, context: string) => void) => RedisEventBus.start(REDIS_URL, onError)],
])('%s event bus', (_name, start) => {
  it('delivers to every bus, the publisher included, and isolates a failing subscriber', async () => {
    const errors: string[] = [];
    const [a, b] = await Promise.all([start((_e, c) => errors.push(c)), start((_e, c) => errors.push(c))]);
    a.subscribe('call.updated', () => {
      throw new Error('subscriber bug');
    });
    const onA = nextEvent(a, 'call-1');
    const onB = nextEvent(b, 'call-1');
    await b.publish('call.updated', event(1));
    expect(await onA).toEqual(event(1));
    expect(await onB).toEqual(event(1));
    expect(new Set(errors)).toEqual(new Set(['subscriber of call.updated failed']));
    await Promise.all([a.close(), b.close()]);
  });

  it("delivers an event to the publisher's own subscribers at once, and once", async () => {
    const [a, b] = await Promise.all([start(() => undefined), start(() => undefined)]);
    const onA: string[] = [];
    const payloads: Topics['call.updated'][] = [];
    a.subscribe('call.updated', (payload) => {
      onA.push(payload.callId);
      payloads.push(payload);
    });
    const sent = event(3);
    const published = a.publish('call.updated', sent);
    expect(onA).toEqual(['call-3']);
    // A copy, as a message received from another replica would be: a subscriber cannot change the publisher's object.
    expect(payloads[0]).toEqual(sent);
    expect(payloads[0]).not.toBe(sent);
    await published;
    // The transport delivers messages in the order they were published: once b's later
    // event has reached a, so has a's copy of its own, which it skipped.
    const heard = nextEvent(a, 'call-4');
    await b.publish('call.updated', event(4));
    await heard;
    expect(onA.filter((id) => id === 'call-3' || id === 'call-4')).toEqual(['call-3', 'call-4']);
    await Promise.all([a.close(), b.close()]);
  });
});

it('PostgreSQL: listens again after its connection was dropped', async () => {
  let lost!: () => void;
  const dropped = new Promise<void>((resolve) => (lost = resolve));
  const bus = await PgEventBus.start(db.url, sidePool, (_err, context) => {
    if (context === 'event bus connection lost') lost();
  });
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()");
  await admin.end();
  await dropped;
  // Events published while the listener is away are missed by design: publish once the
  // listener's new session has run its LISTEN (the only bus of this database).
  await waitFor('the listener to be back', async () => {
    const { rows } = await sidePool.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND state = 'idle' AND pid <> pg_backend_pid()");
    return rows.length > 0 ? true : undefined;
  });
  const received = nextEvent(bus, 'call-2');
  await bus.publish('call.updated', event(2));
  expect(await received).toEqual(event(2));
  await bus.close();
});

it('PostgreSQL: events published together reach the other replicas all, in order, identical ones included, in fewer statements', async () => {
  const statements: string[] = [];
  const counted = new pg.Pool({ connectionString: db.url, max: 2 });
  const query = counted.query.bind(counted);
  counted.query = ((text: string, values?: unknown[]) => {
    statements.push(text);
    return query(text, values);
  }) as typeof counted.query;
  const [a, b] = await Promise.all([PgEventBus.start(db.url, counted, () => undefined), PgEventBus.start(db.url, sidePool, () => undefined)]);
  const heard: string[] = [];
  const all = new Promise<void>((resolve) => {
    b.subscribe('call.updated', (payload) => {
      heard.push(payload.callId);
      if (heard.length === 201) resolve();
    });
  });
  // The first goes at once, the others together after it. The same event twice in a row among
  // them: PostgreSQL sends the identical notifications of one transaction once.
  const sent = [1, 5, 5, ...Array.from({ length: 198 }, (_, i) => 100 + i)];
  await Promise.all(sent.map((n) => a.publish('call.updated', event(n))));
  await all;
  expect(heard).toEqual(sent.map((n) => `call-${n}`));
  expect(statements.length).toBeGreaterThanOrEqual(2);
  expect(statements.length).toBeLessThan(10);
  await Promise.all([a.close(), b.close()]);
  await counted.end();
});
