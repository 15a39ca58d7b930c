import type { MikroORM } from '@mikro-orm/postgresql';

/** Counts the SQL statements the app's ORM runs while `run` runs (every fork shares its logger). */
export async function queriesOf(orm: MikroORM, run: () => Promise<unknown>): Promise<number> {
  const logger = orm.config.getLogger();
  const original = logger.logQuery.bind(logger);
  let count = 0;
  logger.logQuery = (context) => {
    count += 1;
    original(context);
  };
  try {
    await run();
  } finally {
    logger.logQuery = original;
  }
  return count;
}
