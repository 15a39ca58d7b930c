import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { openDatabase } from '../../../src/db/orm';
import { openSidePool } from '../../../src/db/side-pool';
import { createLogger } from '../../../src/logger';
import { JOB_POLICIES } from '../../../src/services/platform/jobs/job-catalogue';
import { JobQueue } from '../../../src/services/platform/jobs/job-queue';
import { jobSql } from '../../../src/services/platform/jobs/job-sql';
import { FakeTimers } from '../../support/clock';
import { createTestDatabase } from '../../support/harness';
import { waitFor } from '../../support/wait';

/** A job queue with no worker: what matters is which jobs exist. Its coalescing windows close when the test moves `timers`. */
describe('the job queue: jobs written in the caller transaction (jobSql), queue policies from the catalogue', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sidePool: pg.Pool;
  let orm: MikroORM;
  let jobs: JobQueue;
  const name = 'campaign.tick' as const;
  const timers = new FakeTimers();

  beforeAll(async () => {
    db = await createTestDatabase();
    sidePool = openSidePool(db.url, 1, createLogger('silent'));
    orm = await openDatabase(db.url, sidePool, 4);
    jobs = await JobQueue.start(db.url, sidePool, { pollMs: 1000, expiryS: 30, maintenanceS: 60, coalesceTimers: timers }, createLogger('silent'));
    await jobs.prepare(name);
  });

  afterAll(async () => {
    await jobs.stop();
    await orm.close();
    await sidePool.end();
    await db.drop();
  });

  const stored = async (campaignId: string) => {
    const rows = await orm.em.fork().execute(`SELECT data, singleton_key, retry_limit FROM pgboss.job WHERE name = ? AND data ->> 'campaignId' = ?`, [name, campaignId]);
    return rows as { data: unknown; singleton_key: string | null; retry_limit: number }[];
  };

  it('exists once the transaction commits, with its data and options', async () => {
    const em = orm.em.fork();
    await em.transactional(async (tx) => {
      await jobs.send(name, { companyId: 'c1', campaignId: 'committed' }, { db: jobSql(tx), singletonKey: 'k?1' });
    });
    expect(await stored('committed')).toEqual([{ data: { companyId: 'c1', campaignId: 'committed' }, singleton_key: 'k?1', retry_limit: JOB_POLICIES[name].retryLimit }]);
  });

  it('waits its delay, counted from the database clock', async () => {
    await orm.em.fork().transactional(async (tx) => {
      await jobs.send(name, { companyId: 'c1', campaignId: 'delayed' }, { db: jobSql(tx), delayMs: 60_000 });
    });
    const [row] = await orm.em.fork().execute(`SELECT extract(epoch FROM start_after - now())::float AS wait FROM pgboss.job WHERE name = ? AND data ->> 'campaignId' = 'delayed'`, [name]);
    expect(row.wait).toBeGreaterThan(55);
    expect(row.wait).toBeLessThanOrEqual(60);
  });

  it('does not exist when the transaction rolls back', async () => {
    const em = orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        await jobs.send(name, { companyId: 'c1', campaignId: 'rolled-back' }, { db: jobSql(tx) });
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(await stored('rolled-back')).toEqual([]);
  });

  it('keeps one waiting job per key on a coalescing queue, every job on the others', async () => {
    expect(JOB_POLICIES['campaign.tick'].coalesce).toBe(true);
    for (let i = 0; i < 3; i++) await jobs.send(name, { companyId: 'c1', campaignId: 'coalesced' }, { singletonKey: 'coalesced', delayMs: 60_000 });
    expect(await stored('coalesced')).toHaveLength(1);
    expect(JOB_POLICIES['call.place'].coalesce).toBe(false);
    await jobs.prepare('call.place');
    for (let i = 0; i < 2; i++) await jobs.send('call.place', { companyId: 'c1', callId: 'same' }, { singletonKey: 'same', delayMs: 60_000 });
    const [{ n }] = await orm.em.fork().execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'call.place' AND singleton_key = 'same'`);
    expect(n).toBe(2);
  });

  it('makes the sends of one key on a coalescing queue within 20 ms one trailing send: a job still waits after the last', async () => {
    const waiting = async () => (await orm.em.fork().execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ? AND singleton_key = 'burst' AND state = 'created'`, [name]))[0].n as number;
    await jobs.send(name, { companyId: 'c1', campaignId: 'burst' }, { singletonKey: 'burst' });
    expect(await waiting()).toBe(1);
    // A worker takes the job (it no longer waits); the next sends come while it runs.
    await orm.em.fork().execute(`UPDATE pgboss.job SET state = 'active' WHERE name = ? AND singleton_key = 'burst'`, [name]);
    for (let i = 0; i < 5; i++) await jobs.send(name, { companyId: 'c1', campaignId: 'burst' }, { singletonKey: 'burst' });
    expect(await waiting()).toBe(0);
    timers.advance(20);
    const trailing = await waitFor('the trailing send', async () => {
      const n = await waiting();
      return n > 0 ? n : undefined;
    });
    expect(trailing).toBe(1);
    const [{ n }] = await orm.em.fork().execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ? AND singleton_key = 'burst'`, [name]);
    expect(n).toBe(2);
  });

  it('refuses to run outside a transaction', async () => {
    await expect(jobs.send(name, { companyId: 'c1', campaignId: 'none' }, { db: jobSql(orm.em.fork()) })).rejects.toThrow('needs a transaction');
  });
});
