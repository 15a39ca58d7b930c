import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { type Config, loadConfig } from '../src/config';
import { ensureDatabase, startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { freePort } from '../test/support/net';

/**
 * Without DATABASE_URL, benchmarks run on an embedded PostgreSQL of their own (folder and
 * port apart from the service's), so they neither touch nor collide with a local service.
 */
export const BENCH_DATABASE = { EMBEDDED_PG_DIR: '.data/bench-postgres', EMBEDDED_PG_PORT: '54339' };

export interface BenchDatabase {
  url: string;
  /** Where it runs, for the report: `DATABASE_URL` or the embedded server. */
  kind: string;
  drop(): Promise<void>;
}

/**
 * A fresh, throw-away database: on DATABASE_URL's server when set, else on an embedded
 * PostgreSQL of its own (a folder of its own under `.data/bench-databases`, a free port, so
 * that `npm run bench` can hold one for the service while its engine runs start theirs),
 * removed by `drop()`.
 */
export async function benchDatabase(): Promise<BenchDatabase> {
  const name = `switchboard_bench_${randomBytes(3).toString('hex')}`;
  if (process.env.DATABASE_URL) {
    const admin = process.env.DATABASE_URL;
    await ensureDatabase(admin, name);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const drop = async () => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    };
    return { url: url.toString(), kind: 'DATABASE_URL server', drop };
  }
  const parent = path.resolve('.data/bench-databases');
  const dir = path.join(parent, name);
  await mkdir(dir, { recursive: true });
  // PostgreSQL runs as the postgres user when we are root: it must reach its folder.
  await Promise.all([chmod(parent, 0o755), chmod(dir, 0o755)]);
  // pg_stat_statements (shipped with the embedded binaries) for each phase's statement profile.
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'data'), port: await freePort(), database: name, settings: ['shared_preload_libraries=pg_stat_statements'] });
  const drop = async () => {
    await db.stop();
    await rm(dir, { recursive: true, force: true });
  };
  return { url: db.url, kind: 'embedded PostgreSQL', drop };
}

/**
 * Statistics as a production database has them, taken after a phase's warm-up: `ANALYZE` of
 * the whole database. A benchmark's tables are seconds old, and autovacuum analyzes a table
 * on its next round only (`autovacuum_naptime`, a minute); until then the service's prepared
 * statements keep the generic plans PostgreSQL made while the tables were empty, which find a
 * call by scanning its company's rows rather than by its primary key (docs/performance.md,
 * "Plans made on empty tables").
 */
export async function analyzeAfterWarmUp(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/**
 * The key of secrets at rest for every service one benchmark run starts (they share its
 * database, and production mode requires a key): SECRETS_KEY when set, else one made for the
 * run, whose databases are thrown away after it.
 */
export const BENCH_SECRETS_KEY = process.env.SECRETS_KEY ?? randomBytes(32).toString('base64');

/**
 * Configuration of a service run inside a benchmark's own process on `url`: production mode,
 * quiet, a free port on 127.0.0.1, fast job polling, zero-length simulated calls, no rate
 * limits (the benchmarks measure the engines); `overrides` last.
 */
export function inProcessConfig(url: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    RATE_LIMIT_ENABLED: '0',
    ...process.env,
    SECRETS_KEY: BENCH_SECRETS_KEY,
    DATABASE_URL: url,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    SIM_RING_MS: '0',
    SIM_TALK_MS: '0',
    JOB_POLL_MS: '50',
    ...overrides,
  });
}
