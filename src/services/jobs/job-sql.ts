import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import type PgBoss from 'pg-boss';

/**
 * pg-boss's SQL port over the transaction open on a MikroORM EntityManager:
 * `send(name, data, { db: jobSql(em) })` between `em.begin()` and `em.commit()` writes the
 * job in that transaction, so the job exists if and only if the state that asked for it
 * does. The SQL goes to the transaction's own connection as is: pg-boss uses `$n`
 * placeholders, some of them twice with different types, which MikroORM's `?` bindings
 * cannot express.
 */
export function jobSql(em: EntityManager): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const trx = em.getTransactionContext<Knex.Transaction>();
      if (!trx) throw new Error('jobSql needs a transaction open on its EntityManager');
      const connection = (await trx.client.acquireConnection()) as { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };
      return connection.query(text, values);
    },
  };
}
