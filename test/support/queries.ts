import type { TestApp } from './harness';

/** Counts the SQL statements the service's ORM runs while `run` runs. */
export function queriesOf(t: TestApp, run: () => Promise<unknown>): Promise<number> {
  return t.statements.count(run);
}
