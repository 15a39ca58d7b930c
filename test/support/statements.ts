import type { MikroORM } from '@mikro-orm/postgresql';
import type { StatementListener } from '../../src/db/orm';
import { auditStatements, loadParser, statementName, type TenantTables, tenantTables } from './statement-audit';

/**
 * The distinct statements the services of this test file ran (jest gives each test file its
 * own module registry, so its own set), with the tenant tables of their ORM; audited when
 * the file ends (test/support/audit-statements.ts).
 */
const ran = new Set<string>();
let tables: TenantTables | null = null;

/** A service's statements: recorded for the file's audit, and heard by whoever listens meanwhile (`queriesOf`). */
export class StatementTap {
  private readonly listeners = new Set<StatementListener>();

  readonly onStatement: StatementListener = (sql) => {
    ran.add(sql);
    for (const listener of this.listeners) listener(sql);
  };

  /** Learns the tenant tables from the service's ORM, once it is up. */
  opened(orm: MikroORM): void {
    tables ??= tenantTables(orm);
  }

  /**
   * Counts the statements run while `run` runs, but the periodic sweeps' (named `sweep:...`),
   * which run on their own timers whatever `run` does.
   */
  async count(run: () => Promise<unknown>): Promise<number> {
    let count = 0;
    const listener: StatementListener = (sql) => {
      if (!statementName(sql)?.startsWith('sweep:')) count += 1;
    };
    this.listeners.add(listener);
    try {
      await run();
    } finally {
      this.listeners.delete(listener);
    }
    return count;
  }
}

/** The statements of this test file that lack the company filter (docs/scaling.md); empty when none ran. */
export async function unfilteredStatements(): Promise<string[]> {
  if (!tables || ran.size === 0) return [];
  await loadParser();
  return auditStatements(ran, tables);
}
