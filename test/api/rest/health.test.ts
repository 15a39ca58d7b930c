import { createLogger } from '../../../src/logger';
import { HealthService } from '../../../src/services/platform/health.service';
import { adminQuery as admin, startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

const READY = { status: 'ok', message: 'ok', data: { checks: { database: 'ok', migrations: 'ok', workers: 'ok' } } };

describe('a replica with job workers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz without credentials', async () => {
    const live = await t.request('GET', '/healthz');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok', message: 'ok', data: { checks: { process: 'ok' } } });
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual(READY);
  });

  it('is not ready while its database refuses connections, and ready again once it accepts them', async () => {
    const database = new URL(t.databaseUrl).pathname.slice(1);
    // The database goes away for this service: new connections refused, open ones cut.
    await admin(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    try {
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`);
      const down = await t.request('GET', '/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: 'error', message: 'Not ready', data: { checks: { database: 'unreachable', migrations: 'ok', workers: 'ok' } } });
      expect((await t.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await admin(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    }
    await waitFor('readiness after the database is back', async () => ((await t.request('GET', '/readyz')).status === 200 ? true : undefined));
  });

  it('counts migrations the database lacks, as read at start', async () => {
    const em = t.app.orm.em.fork();
    const [last] = await em.getConnection().execute<{ name: string }[]>('SELECT name FROM mikro_orm_migrations ORDER BY name DESC LIMIT 1');
    await em.getConnection().execute('DELETE FROM mikro_orm_migrations WHERE name = ?', [last.name]);
    try {
      const health = await HealthService.start(t.app.orm, t.app.jobs, { workers: true, logger: createLogger('silent') });
      expect(await health.readiness()).toEqual({ ready: false, checks: { database: 'ok', migrations: '1 pending', workers: 'ok' } });
    } finally {
      await em.getConnection().execute('INSERT INTO mikro_orm_migrations (name, executed_at) VALUES (?, now())', [last.name]);
    }
  });

  it('is not ready once its job workers have stopped', async () => {
    await t.app.jobs.stop();
    const res = await t.request('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body.data.checks).toEqual({ database: 'ok', migrations: 'ok', workers: 'stopped' });
  });
});

describe('an API-only replica (JOB_WORKERS=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ JOB_WORKERS: '0' });
  });
  afterAll(() => t.close());

  it('is ready, its workers reported as disabled', async () => {
    const res = await t.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body.data.checks).toEqual({ database: 'ok', migrations: 'ok', workers: 'disabled' });
  });
});
