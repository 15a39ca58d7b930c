import pg from 'pg';
import { closePool } from '../../../src/db/side-pool';
import { createTestDatabase } from '../../support/harness';

// A pool closed before its database is stopped or dropped (the embedded one at shutdown, a
// benchmark's) must have no connection left open, or the stop ends one and the pool reports it.

describe('closePool', () => {
  it('answers once every connection of the pool is closed, not when they were asked to close', async () => {
    const db = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: db.url, max: 3 });
    const ends: Promise<void>[] = [];
    pool.on('connect', (client) => ends.push(new Promise((resolve) => client.once('end', () => resolve()))));
    try {
      await Promise.all([1, 2, 3].map(() => pool.query('SELECT pg_sleep(0.05)')));
      expect(ends).toHaveLength(3);
      let ended = 0;
      for (const end of ends) void end.then(() => (ended += 1));
      await closePool(pool);
      expect(ended).toBe(3);
    } finally {
      await db.drop();
    }
  });

  it('answers at once for a pool that never connected', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    await expect(closePool(pool)).resolves.toBeUndefined();
  });
});
