import pg from 'pg';
import type { Logger } from '../logger';

/**
 * The one pool of short statements beside the ORM's, shared by everything that runs a
 * statement at a time: rate-limit reservations, event-bus publishes (`pg_notify`), the hot
 * reads (`viewQuery`, prepared statements) and the start-up locks (migrations, queue creation). Its size is `DATABASE_SIDE_POOL_MAX`; it
 * opens connections only as they are needed, so with Redis it mostly stays empty.
 *
 * Not here, on connections of their own: the event bus's LISTEN session (a listening session
 * stays open and cannot go back to a pool) and pg-boss's pool (docs/architecture.md,
 * Connections). Closed once, after everything that uses it.
 *
 * Its statements are cut past `statementTimeoutMs` (PostgreSQL's `statement_timeout`, set as
 * each connection opens): requests' reads run here, and REQUEST_STATEMENT_TIMEOUT_MS holds for
 * them as for the requests' ORM (everything else here is one short statement too).
 */
export function openSidePool(connectionString: string, max: number, logger: Logger, statementTimeoutMs?: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, application_name: 'switchboard-side', statement_timeout: statementTimeoutMs });
  pool.on('error', (err) => logger.warn({ err }, 'side pool: idle connection failed'));
  return pool;
}

/**
 * Ends `pool` and answers once each of its connections is closed. pg's `end()` answers as soon
 * as it has asked them to close: a database stopped or dropped right after it (the embedded
 * one, a benchmark's) would end a connection still open, which the pool reports as an error.
 */
export async function closePool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      open -= 1;
      if (open === 0) resolve();
    });
  });
  await pool.end();
  await closed;
}

/** How often a process waiting for a session lock asks for it again. */
const LOCK_POLL_MS = 100;

/**
 * Runs `work` while holding the session advisory lock `key` (key space: hashtext); other
 * processes asking for it wait their turn. The lock's session is a connection of `pool`,
 * destroyed afterwards rather than given back: ending the session releases the lock, even
 * when `work` failed because the connection did. A waiting process asks again every
 * LOCK_POLL_MS (`pg_try_advisory_lock`) rather than waiting inside one statement: a statement
 * waiting holds a snapshot, and a migration under the lock that builds an index
 * CONCURRENTLY waits for every older snapshot to end, so the waiting replicas and the
 * migrating one would wait for each other (a cycle through this process, which PostgreSQL's
 * deadlock detector cannot see).
 */
export async function withSessionLock<T>(pool: pg.Pool, key: string, work: () => Promise<T>): Promise<T> {
  const lock = await pool.connect();
  // A lost connection also fails the query under way; unheard, its 'error' event would crash the process.
  lock.on('error', () => undefined);
  try {
    while (!(await lock.query<{ taken: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS taken', [key])).rows[0].taken) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    return await work();
  } finally {
    lock.release(true);
  }
}
