import type { EntityManager } from '@mikro-orm/postgresql';

/** How many records are in each state right now, over the whole database (every company, every replica's work). */
export interface SystemState {
  /** Calls by status. */
  calls: Map<string, number>;
  /** Flow executions by status. */
  executions: Map<string, number>;
  /** Jobs waiting, by queue: `ready` may start now, `scheduled` later (retries, timed steps). */
  queues: Map<string, { ready: number; scheduled: number }>;
}

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

interface Row {
  kind: 'call' | 'execution' | 'queue';
  key: string;
  state: 'ready' | 'scheduled' | '';
  n: number;
}

/**
 * Operational counts for monitoring. Deliberately without a caller scope: the numbers are
 * cluster-wide and go only to the operator's metrics endpoint, never to a tenant.
 */
export class SystemStateService {
  async read(em: EntityManager): Promise<SystemState> {
    const rows = await em.getConnection().execute<Row[]>(SQL);
    const state: SystemState = { calls: new Map(), executions: new Map(), queues: new Map() };
    for (const row of rows) {
      if (row.kind === 'call') state.calls.set(row.key, row.n);
      else if (row.kind === 'execution') state.executions.set(row.key, row.n);
      else {
        const queue = state.queues.get(row.key) ?? { ready: 0, scheduled: 0 };
        if (row.state === 'scheduled') queue.scheduled += row.n;
        else queue.ready += row.n;
        state.queues.set(row.key, queue);
      }
    }
    return state;
  }
}
