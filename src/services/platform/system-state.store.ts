import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One statement for the three: calls grouped by status (an index-only scan of the
 * `(call_status, updated_at)` index), executions grouped by status (a scan of
 * `webhook_executions`), and pg-boss's waiting jobs per queue (its `(name, start_after)`
 * partial index over created and retry jobs). Every queue pg-boss knows appears, idle ones
 * with zero; pg-boss's internal queues (`__pgboss__...`) are left out.
 */
const SQL = `
  SELECT 'call' AS kind, call_status AS key, '' AS state, count(*)::int AS n FROM calls GROUP BY call_status
  UNION ALL
  SELECT 'execution', status, '', count(*)::int FROM webhook_executions GROUP BY status
  UNION ALL
  SELECT 'queue', q.name, CASE WHEN j.start_after > now() THEN 'scheduled' ELSE 'ready' END, count(j.id)::int
  FROM pgboss.queue q LEFT JOIN pgboss.job j ON j.name = q.name AND j.state < 'active'
  WHERE q.name NOT LIKE '\\_\\_pgboss%'
  GROUP BY 2, 3`;

/** One count: calls or executions by status (`state` empty), waiting jobs by queue and readiness. */
export interface StateCount {
  kind: 'call' | 'execution' | 'queue';
  key: string;
  state: 'ready' | 'scheduled' | '';
  n: number;
}

/** Every count, over the whole database. */
export async function stateCounts(em: EntityManager): Promise<StateCount[]> {
  return em.execute<StateCount[]>(SQL);
}
