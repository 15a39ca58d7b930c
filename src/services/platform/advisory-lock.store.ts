import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Transaction-scoped advisory locks (key space: `hashtext` of a string key), released when
 * the transaction open on `em` ends: how replicas take turns on a company's call slots, a
 * campaign's tick and the demo seed.
 */

/** Waits for the lock on `key`. */
export async function lockUntilCommit(em: EntityManager, key: string): Promise<void> {
  await em.execute('SELECT pg_advisory_xact_lock(hashtext(?))', [key]);
}

/** Takes the lock on `key` if it is free; false when another transaction holds it. */
export async function tryLockUntilCommit(em: EntityManager, key: string): Promise<boolean> {
  const [row] = await em.execute<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked', [key]);
  return row.locked;
}
