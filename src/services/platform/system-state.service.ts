import type { EntityManager } from '@mikro-orm/postgresql';
import { stateCounts } from './system-state.store';

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
 * Operational counts for monitoring. Deliberately without a caller scope: the numbers are
 * cluster-wide and go only to the operator's metrics endpoint, never to a tenant.
 */
export class SystemStateService {
  async read(em: EntityManager): Promise<SystemState> {
    const rows = await stateCounts(em);
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
