import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { type RunningApp, type StartOptions, startApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { ApiKey } from '../../src/entities';
import { createLogger, type Logger } from '../../src/logger';
import { StatementTap } from './statements';

export const JWT_SECRET = 'test-secret-at-least-16-chars';

/** SECRETS_KEY of every service and replica process of the tests: replicas sharing a database share the key. */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * The admin user's one connection in this worker, kept from one test file to the next: each
 * file creates and drops a database, and a new connection costs PostgreSQL a backend
 * (docs/testing.md, "How long it takes"). Idle, it lets the worker exit.
 */
let admin: pg.Pool | undefined;

/** Runs `sql` as the admin user, outside any service's connections; answers its rows. */
export async function adminQuery(sql: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (!admin) {
    admin = new pg.Pool({ connectionString: process.env.TEST_ADMIN_DATABASE_URL, max: 1, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
    // A connection the server ends while idle (a test stopping PostgreSQL) is replaced at the next query.
    admin.on('error', () => undefined);
  }
  return (await admin.query(sql, values)).rows;
}

/** How long a dropped database's connections are given to finish closing before they are terminated. */
const CLOSING_MS = 1000;

/**
 * Drops a test database. Connections a file has just closed may still be closing (pg-pool's
 * `end()` resolves before its sockets are): terminating one of those would reach its client
 * as an error, so they are given CLOSING_MS to go; whatever is left is then terminated.
 */
async function dropTestDatabase(name: string): Promise<void> {
  const connected = async () => (await adminQuery('SELECT 1 FROM pg_stat_activity WHERE datname = $1 LIMIT 1', [name])).length > 0;
  const deadline = Date.now() + CLOSING_MS;
  while (Date.now() < deadline && (await connected())) await new Promise((resolve) => setTimeout(resolve, 5));
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** Revokes every API key of a company, as an operator does (the service has no operation for it). */
export async function revokeKeys(t: TestApp, companyId: string): Promise<void> {
  await t.app.orm.em.fork().nativeUpdate(ApiKey, { company: companyId }, { revokedAt: new Date() });
}

/** A response body parsed as JSON, or undefined when it is not JSON. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A database of this test file's own, cloned from the migrated template; with `empty`, a
 * database with no tables at all (a first deployment).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sb_test_${process.env.TEST_RUN_ID}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminQuery(options.empty ? `CREATE DATABASE "${name}"` : `CREATE DATABASE "${name}" TEMPLATE "${process.env.TEST_TEMPLATE_DATABASE}"`);
  const url = new URL(process.env.TEST_ADMIN_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropTestDatabase(name) };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  raw?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  /** The running service (a new one after `restart()`). */
  app: RunningApp;
  url: string;
  databaseUrl: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** A new company with its API key. */
  company(name?: string): Promise<{ companyId: string; apiKey: string }>;
  jwtFor(companyId: string, claims?: Record<string, unknown>, secret?: string): string;
  /** The statements the service's ORM runs: counted by `queriesOf`, audited by `close()`, which fails when one on a tenant table lacks its company filter. */
  statements: StatementTap;
  /** Closes the service and starts a new one on the same database (a deploy, a crash recovery); `env` changes its settings from then on. */
  restart(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions extends StartOptions {
  /** Where the service logs (default: a logger at LOG_LEVEL, silent unless `env` says otherwise). */
  logger?: Logger;
}

/** The service's configuration in tests: quick jobs and sweeps, no demo, silent, limits out of reach; `env` overrides. */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
    // An idle worker looks for other processes' jobs once a second, as in production: jobs this
    // process queues wake their worker at once, and each poll of 12 queues every 50 ms cost an
    // idle service's PostgreSQL 66 ms of CPU a second (5 at 1 s).
    JOB_POLL_MS: '1000',
    // The call sweep once a second (production: 30 s): every 250 ms it cost a waiting service
    // about 4% of a core; suites that wait on a sweep get one within a second.
    CALL_SWEEP_MS: '1000',
    // The side pool as small as before the hot reads used it: suites start services side by
    // side on one PostgreSQL (docs/testing.md), each then opening at most 35 connections
    // (the ORM's pool and the requests' ORM's, 10 each: src/db/orm.ts).
    DATABASE_SIDE_POOL_MAX: '4',
    // Limits on, as in production, but out of reach of the suites (100 make-calls at once,
    // benches' thousands); test/api/operations/rate-limits.test.ts sets low ones.
    RATE_LIMIT_PER_CREDENTIAL: '1000000',
    RATE_LIMIT_PER_COMPANY: '1000000',
    RATE_LIMIT_MAKE_CALL: '1000000',
    RATE_LIMIT_FLOW_TRIGGER: '1000000',
    AUTH_FAILURES_PER_MINUTE: '1000000',
    // No simulated callee unless a suite asks for one (SIM_CALLEE_TURNS): the conversation
    // suites drive a live call's conversation themselves, and the rest want the canned transcript.
    SIM_CALLEE_TURNS: '0',
    ...env,
  });
}

/** Starts the real service on a fresh database and a free port; `close()` drops both. */
export async function startTestApp(env: Record<string, string> = {}, { logger, ...options }: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  let config = testConfig(db.url, env);
  const statements = new StatementTap();
  const start = async () => {
    const started = await startApp(config, logger ?? createLogger(config.logLevel), { ...options, onStatement: statements.onStatement });
    statements.opened(started.orm);
    return started;
  };
  let app = await start();
  return {
    get app() {
      return app;
    },
    get url() {
      return app.url;
    },
    databaseUrl: db.url,
    statements,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.raw;
      if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const res = await fetch(`${app.url}${path}`, { method, headers, body });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: jsonOrUndefined(text) as never, text };
    },
    async company(name = 'Acme') {
      return app.services.auth.createCompany(app.orm.em.fork(), { name });
    },
    jwtFor(companyId, claims = {}, secret = JWT_SECRET) {
      const exp = Math.floor(Date.now() / 1000) + 3600;
      return jwt.sign({ company_id: companyId, sub: 'user-1', exp, ...claims } satisfies jwt.JwtPayload, secret, { algorithm: 'HS256' });
    },
    async restart(changed) {
      await app.close();
      if (changed) config = testConfig(db.url, { ...env, ...changed });
      app = await start();
    },
    async close() {
      await app.close();
      await db.drop();
      const failures = await statements.unfiltered();
      if (failures.length > 0) {
        throw new Error(`${failures.length} statement(s) on tenant tables lack the company filter a table distributed by company needs (docs/scaling.md):\n  ${failures.join('\n  ')}`);
      }
    },
  };
}
