import type { EntityManager } from '@mikro-orm/postgresql';
import type { Within } from './statements';

/**
 * Runs `work` in one transaction, as the caller says: `within(tx)`, in the caller's own (it
 * commits or rolls back with the rest); `alone`, in one opened here on `em`, the caller's unit
 * of work, so that what `work` flushes on it commits there too. `work` is told the transaction
 * it runs in.
 */
export async function inTransaction<T>(em: EntityManager, on: Within, work: (on: { readonly tx: EntityManager }) => Promise<T>): Promise<T> {
  if (on.tx) return work({ tx: on.tx });
  await em.begin();
  try {
    const result = await work({ tx: em });
    await em.commit();
    return result;
  } catch (err) {
    await em.rollback();
    throw err;
  }
}
