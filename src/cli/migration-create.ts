import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { ormOptions } from '../db/orm';
import { resolveDatabase } from '../db/database';

/**
 * Writes a migration for the difference between the entities and the migrated database
 * into src/migrations; add it to src/migrations/index.ts. Usage: npm run migration:create
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = await resolveDatabase(config);
  const orm = await MikroORM.init(ormOptions(db.url, 1));
  try {
    const migrator = orm.migrator;
    await migrator.up();
    const result = await migrator.createMigration('src/migrations');
    process.stdout.write(result.fileName ? `wrote src/migrations/${result.fileName}\n` : 'no changes\n');
  } finally {
    await orm.close();
    await db.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
