import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureDatabase, startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { openDatabase } from '../../src/db/orm';
import { freePort } from './net';

const run = promisify(execFile);

/** Runs a build step with node; its output is shown only when it fails. */
async function runStep(what: string, args: string[]): Promise<void> {
  try {
    await run(process.execPath, args);
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${what} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/**
 * Compiles src to dist (incremental: a few seconds when nothing changed), once for the run:
 * suites that start the real entry points (`node dist/src/main.js`, the admin CLI) as
 * processes need it, and one build here means no two suites write dist at the same time.
 * The web console is built too (skipped when its sources did not change): every service the
 * suites start serves it, and test/console drives it in a browser.
 */
async function build(): Promise<void> {
  await runStep('tsc -p tsconfig.build.json', [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
  await runStep('node console/build.mjs', ['console/build.mjs']);
}

/**
 * One PostgreSQL for the run: DATABASE_URL's server when set, else an embedded one in a
 * fresh folder. A template database is migrated once; each test file clones it.
 */
async function prepareDatabases(): Promise<{ adminUrl: string; template: string; runId: string }> {
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    await mkdir(path.resolve('.data'), { recursive: true });
    const dir = await mkdtemp(path.resolve('.data/test-pg-'));
    await chmod(dir, 0o755); // PostgreSQL runs as the postgres user when we are root
    const db = await startEmbeddedPostgres({ dir: path.join(dir, 'data'), port: await freePort(), database: 'postgres' });
    (globalThis as Record<string, unknown>).__testDb = { stop: db.stop, dir };
    adminUrl = db.url;
  }
  const runId = randomBytes(4).toString('hex');
  const template = `sb_test_tmpl_${runId}`;
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  await ensureDatabase(adminUrl, template);
  const orm = await openDatabase(url.toString(), 2);
  await orm.close();
  // MikroORM keeps entity metadata on globalThis; when jest runs in band, test files would
  // otherwise inherit this realm's copy and fail on it.
  delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
  return { adminUrl, template, runId };
}

export default async function globalSetup(): Promise<void> {
  const [, databases] = await Promise.all([build(), prepareDatabases()]);
  const { adminUrl, template, runId } = databases;
  process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
  process.env.TEST_TEMPLATE_DATABASE = template;
  process.env.TEST_RUN_ID = runId;
  (globalThis as Record<string, unknown>).__testTemplate = databases;
}
