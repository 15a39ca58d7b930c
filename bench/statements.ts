import pg from 'pg';

/** One statement of a profile: how often it ran per unit of work, and its share of the time. */
export interface Statement {
  query: string;
  /** The whole text (`query` is its first 160 characters, spaces collapsed). */
  fullQuery: string;
  perUnit: number;
  /** Times it ran. */
  calls: number;
  totalMs: number;
  share: number;
}

/**
 * A PostgreSQL statement profile of one phase of a benchmark (`pg_stat_statements`, which
 * the server must preload): `start()` clears the statistics of the database, `top(units)`
 * answers its statements by total execution time, with calls per unit (request, call,
 * contact, execution).
 */
export async function statementProfile(databaseUrl: string) {
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  let available = true;
  try {
    await sql.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await sql.query('SELECT 1 FROM pg_stat_statements LIMIT 1');
  } catch {
    available = false; // not preloaded (shared_preload_libraries): profiles are left out
  }
  const dbid = 'SELECT oid FROM pg_database WHERE datname = current_database()';
  return {
    available,
    async start(): Promise<void> {
      if (available) await sql.query(`SELECT pg_stat_statements_reset(0, (${dbid}), 0)`);
    },
    async top(units: number, count = 8): Promise<Statement[]> {
      if (!available) return [];
      const { rows } = await sql.query<{ query: string; full: string; calls: string; total: number }>(
        `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, query AS full, calls, total_exec_time AS total
           FROM pg_stat_statements WHERE dbid = (${dbid}) AND query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC`,
      );
      const all = rows.reduce((s, r) => s + r.total, 0);
      return rows.slice(0, count).map((r) => ({
        query: r.query.slice(0, 160),
        fullQuery: r.full,
        perUnit: Number(r.calls) / Math.max(1, units),
        calls: Number(r.calls),
        totalMs: r.total,
        share: r.total / Math.max(all, 1e-9),
      }));
    },
    close: () => sql.end(),
  };
}

/** Lines for the log: share of database time, calls per unit, statement. */
export const statementLines = (label: string, statements: Statement[]) => [
  `statements of ${label} (share of database time, calls per unit):`,
  ...statements.map((s) => `  ${(100 * s.share).toFixed(1).padStart(5)}%  ${s.perUnit.toFixed(2).padStart(6)}  ${s.query}`),
];
