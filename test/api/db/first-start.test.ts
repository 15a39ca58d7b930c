import pg from 'pg';
import { openDatabase } from '../../../src/db/orm';
import { openSidePool } from '../../../src/db/side-pool';
import { createLogger } from '../../../src/logger';
import { migrationsList } from '../../../src/migrations';
import { JobQueue } from '../../../src/services/platform/jobs/job-queue';
import { seedDemo } from '../../../src/services/platform/seed.service';
import { createTestDatabase, startTestApp } from '../../support/harness';

// Replicas of a new deployment start at the same moment on the same empty database: what
// each does once on a first start must still happen once.
describe('replicas starting together on a new database', () => {
  it('apply each migration once, and all of them start', async () => {
    const db = await createTestDatabase({ empty: true });
    try {
      const sidePools = [1, 2, 3].map(() => openSidePool(db.url, 1, createLogger('silent')));
      const orms = await Promise.all(sidePools.map((sidePool) => openDatabase(db.url, sidePool, 2)));
      await Promise.all(orms.map((orm) => orm.close()));
      await Promise.all(sidePools.map((sidePool) => sidePool.end()));
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const applied = await client.query<{ name: string }>('select name from mikro_orm_migrations order by id');
      await client.end();
      expect(applied.rows.map((r) => r.name)).toEqual(migrationsList.map((m) => m.name));
    } finally {
      await db.drop();
    }
  });

  it('create each job queue once, none of them failing', async () => {
    const db = await createTestDatabase({ empty: true });
    const sidePools = [1, 2, 3].map(() => openSidePool(db.url, 1, createLogger('silent')));
    const queues = await Promise.all(sidePools.map((sidePool) => JobQueue.start(db.url, sidePool, { pollMs: 50, expiryS: 30, maintenanceS: 10 }, createLogger('silent'))));
    try {
      await Promise.all(queues.map((q) => Promise.all([q.prepare('call.dispatch'), q.prepare('call.place')])));
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const created = await client.query<{ name: string }>('select name from pgboss.queue order by name');
      await client.end();
      expect(created.rows.map((r) => r.name)).toEqual(['call.dispatch', 'call.place']);
    } finally {
      await Promise.all(queues.map((q) => q.stop()));
      await Promise.all(sidePools.map((sidePool) => sidePool.end()));
      await db.drop();
    }
  });

  it('make one demo company between them', async () => {
    const t = await startTestApp();
    try {
      const seeds = await Promise.all([1, 2, 3, 4].map(() => seedDemo(t.app.orm.em.fork(), t.app.services)));
      expect(seeds.filter((s) => s !== null)).toHaveLength(1);
      const [row] = await t.app.orm.em.fork().execute('select count(*)::int as n from companies');
      expect(row.n).toBe(1);
    } finally {
      await t.close();
    }
  });
});
