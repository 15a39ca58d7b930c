import { Migration } from '@mikro-orm/migrations';

/** An index a live table takes: its name, its table, and what follows `on "<table>"` (columns, method, INCLUDE, WHERE); `unique` for a unique one. */
export interface LiveIndex {
  name: string;
  table: string;
  definition: string;
  unique?: boolean;
}

/**
 * A migration that adds indexes to tables that may hold millions of rows when it runs: each
 * is built with `CREATE INDEX CONCURRENTLY`, so the table keeps taking writes meanwhile (a
 * plain CREATE INDEX blocks every write for as long as the build takes). CONCURRENTLY cannot
 * run in a transaction: these migrations are not transactional (migrations run one transaction
 * each, `allOrNothing` off in src/db/orm.ts). A build that failed leaves an invalid index of
 * that name behind: each is dropped first, so running the migration again finishes it.
 */
export abstract class ConcurrentIndexes extends Migration {
  protected abstract readonly indexes: readonly LiveIndex[];

  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    for (const { name, table, definition, unique } of this.indexes) {
      this.addSql(`drop index concurrently if exists "${name}";`);
      this.addSql(`create ${unique ? 'unique ' : ''}index concurrently "${name}" on "${table}" ${definition};`);
    }
  }

  override async down(): Promise<void> {
    for (const { name } of [...this.indexes].reverse()) this.addSql(`drop index concurrently if exists "${name}";`);
  }
}
