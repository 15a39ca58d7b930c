import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import type PgBoss from 'pg-boss';

/**
 * pg-boss's numbered placeholders (`$1`) as knex's positional `?` bindings; a literal `?`
 * (a jsonb operator) is escaped for knex. A statement that uses a placeholder twice is
 * refused: as two `?` each would get a type of its own, where PostgreSQL gives `$n` one
 * (pg-boss's single-job insert reads its `startAfter` as text and as a timestamp). Its
 * many-job insert, which `JobQueue` sends through here, uses each once. Unset values are
 * null, as the pg driver would send them (knex refuses undefined).
 */
export function positionalBindings(text: string, values: readonly unknown[]): { sql: string; bindings: unknown[] } {
  const bindings: unknown[] = [];
  const seen = new Set<string>();
  const sql = text.replace(/\?/g, '\\?').replace(/\$(\d+)/g, (_, n: string) => {
    if (seen.has(n)) throw new Error(`jobSql cannot bind placeholder $${n} twice`);
    seen.add(n);
    bindings.push(values[Number(n) - 1] ?? null);
    return '?';
  });
  return { sql, bindings };
}

/**
 * pg-boss's SQL port (its documented `db` option, `Db.executeSql`) over the transaction open
 * on a MikroORM EntityManager. pg-boss documents an adapter for this, `fromKnex(trx)`
 * (docs/api/adapters.md), but only in releases that need Node 22 (11.x and later, by their
 * `engines`); 10.x, pinned for Node 20.19, has the `Db` port alone, so the placeholders are translated here. With an
 * upgrade to Node 22, `fromKnex(em.getTransactionContext())` replaces this file.
 *
 * `jobs.send(name, data, { db: jobSql(em) })` inside `em.transactional()` writes the
 * job in that transaction, so the job exists if and only if the state that asked for it
 * does. The statement runs through knex's documented `trx.raw` on the transaction MikroORM
 * hands out (`em.getTransactionContext()`), with its values bound rather than inlined
 * (`em.execute` would format them into the SQL text).
 */
export function jobSql(em: EntityManager): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const trx = em.getTransactionContext<Knex.Transaction>();
      if (!trx) throw new Error('jobSql needs a transaction open on its EntityManager');
      const { sql, bindings } = positionalBindings(text, values);
      return trx.raw(sql, bindings as Knex.RawBinding[]);
    },
  };
}
