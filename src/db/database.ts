import type { Config } from '../config';
import { type RunningDatabase, startEmbeddedPostgres } from './embedded-postgres';

/** The PostgreSQL named by DATABASE_URL, or else the embedded one under EMBEDDED_PG_DIR. */
export async function resolveDatabase(config: Config, log?: (line: string) => void): Promise<RunningDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  return startEmbeddedPostgres({ ...config.embeddedPg, database: 'switchboard', log });
}
