import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import type PgBoss from 'pg-boss';

/**
 * pg-boss's numbered placeholders (`$1`, some used more than once) as knex's positional `?`
 * bindings, one value per occurrence; a literal `?` (a jsonb operator) is escaped for knex.
 * pg-boss leaves unset options undefined, which knex refuses as a binding: they are null,
 * as the pg driver would have sent them.
 */
export function positionalBindings(text: string, values: readonly unknown[]): { sql: string; bindings: unknown[] } {
  const bindings: unknown[] = [];
  const sql = text.replace(/\?/g, '\\?').replace(/\$(\d+)/g, (_, n: string) => {
    bindings.push(values[Number(n) - 1] ?? null);
    return '?';
  });
  return { sql, bindings };
}

/**
 * pg-boss's SQL port over the transaction open on a MikroORM EntityManager:
 * `send(name, data, { db: jobSql(em) })` between `em.begin()` and `em.commit()` writes the
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
