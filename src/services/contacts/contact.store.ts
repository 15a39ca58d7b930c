import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Refreshes the planner's statistics of the contacts table after a bulk import that changes
 * it by as much as autovacuum waits for (50 rows plus 10% of the table: its default
 * `autovacuum_analyze_threshold` and `_scale_factor`), instead of within autovacuum's next
 * round, up to a minute later. PostgreSQL's advice after a bulk load ("Populating a
 * Database": run ANALYZE afterwards). Without it, a campaign started right after the first
 * large import of a deployment ran its calls' statements on plans made for an empty table: a
 * sequential scan of the contacts in every transition (1.5 ms and about 1,200 buffers each,
 * against 0.18 ms and 39 buffers; docs/performance.md, "The dialer and stale statistics").
 */
export async function refreshContactStatistics(em: EntityManager, imported: number): Promise<void> {
  const [table] = await em.execute(`/* maintenance:contacts-statistics */ SELECT GREATEST(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'contacts'::regclass`);
  if (imported >= 50 + 0.1 * Number(table!.rows)) await em.execute(`/* maintenance:contacts-statistics */ ANALYZE contacts`);
}
