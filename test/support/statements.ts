import type { MikroORM } from '@mikro-orm/postgresql';
import type { StatementListener } from '../../src/db/orm';
import { auditStatements, loadParser, statementName, type TenantTables, tenantTables } from './statement-audit';

/**
 * A service's statements (across its restarts): the distinct ones recorded, with the tenant
 * tables of its ORM, for the audit when it closes (`unfiltered`), and heard by whoever listens
 * meanwhile (`count`).
 */
export class StatementTap {
  private readonly listeners = new Set<StatementListener>();
  private readonly ran = new Set<string>();
  private tables: TenantTables | null = null;

  readonly onStatement: StatementListener = (sql) => {
    this.ran.add(sql);
    for (const listener of this.listeners) listener(sql);
  };

  /** Learns the tenant tables from the service's ORM, once it is up. */
  opened(orm: MikroORM): void {
    this.tables ??= tenantTables(orm);
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

  /** Hears every statement as it completes, until the returned function is called. */
  listen(listener: StatementListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The statements run that lack the company filter (docs/scaling.md); empty when none ran. */
  async unfiltered(): Promise<string[]> {
    if (!this.tables || this.ran.size === 0) return [];
    await loadParser();
    return auditStatements(this.ran, this.tables);
  }
}
