import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import { entities } from '../entities';
import { migrationsList } from '../migrations';
import { RATE_LIMIT_TABLE } from '../services/rate-limit.service';

/** Connections of the service's ORM pool (npm run bench gives its bare baseline as many). */
export const POOL_MAX = 10;

/** MikroORM options for one database. Schema changes come only from committed migrations. */
export function ormOptions(clientUrl: string, poolMax = POOL_MAX) {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: false,
    // Not an entity: rate-limiter-flexible reads and writes it (made by a migration all the same).
    schemaGenerator: { skipTables: [RATE_LIMIT_TABLE] },
    migrations: {
      migrationsList,
      path: 'src/migrations',
      emit: 'ts',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
  });
}

/** Connects and applies pending migrations (never schema sync). */
export async function openDatabase(clientUrl: string, poolMax?: number): Promise<MikroORM> {
  const orm = await MikroORM.init(ormOptions(clientUrl, poolMax));
  await orm.getMigrator().up();
  return orm;
}
