import type { EntityManager } from '@mikro-orm/postgresql';

/** Runs `work` in one transaction on `em`: the one already open, or one of its own. */
export async function inTransaction<T>(em: EntityManager, work: () => Promise<T>): Promise<T> {
  if (em.isInTransaction()) return work();
  await em.begin();
  try {
    const result = await work();
    await em.commit();
    return result;
  } catch (err) {
    await em.rollback();
    throw err;
  }
}
