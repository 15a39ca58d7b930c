import type { EntityManager } from '@mikro-orm/postgresql';
import type PgBoss from 'pg-boss';

/**
 * pg-boss's SQL port over a MikroORM EntityManager: `send(name, data, { db: jobSql(em) })`
 * between `em.begin()` and `em.commit()` writes the job in that transaction, so that the
 * job exists if and only if the state that asked for it does. pg-boss writes `$n`
 * placeholders and MikroORM's raw queries take `?`: each `$n` becomes a `?` bound to
 * value n (pg-boss's job SQL has no literal `?`; one would be refused).
 */
export function jobSql(em: EntityManager): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (text.includes('?')) throw new Error('jobSql cannot rebind SQL that contains "?"');
      const bindings: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_, n: string) => {
        bindings.push(values[Number(n) - 1] ?? null);
        return '?';
      });
      const rows = await em.execute(sql, bindings as never[]);
      return { rows };
    },
  };
}
