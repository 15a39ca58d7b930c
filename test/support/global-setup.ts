import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureDatabase, startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { chromiumPath } from './browser';
import { freePort } from './net';

const run = promisify(execFile);

/** Runs a Node script; fails with everything it printed. */
async function node(what: string, args: string[], env?: Record<string, string>): Promise<void> {
  try {
    await run(process.execPath, args, env ? { env: { PATH: process.env.PATH ?? '', ...env } } : {});
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${what} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/**
 * Type-checks src, test and bench (strict, as `npm run typecheck`) and compiles them to dist
 * in one incremental program (a few seconds when little changed), once for the run: a type
 * error stops the run, and suites that start the real entry points (`node dist/src/main.js`,
 * the admin CLI) as processes find them built, by no one else at the same time. The web
 * console is built beside it (its GraphQL types generated from schema.graphql, then bundled;
 * skipped when its sources did not change), then type-checked (incrementally too): every
 * service the suites start serves it, and test/api/console drives it in a browser. Under
 * `npm test` (TEST_TYPECHECKED) the checks did the typechecks and dist before jest started,
 * on the programs ESLint then reads (test/support/checks.mjs): only the bundle is left.
 */
async function typecheckAndBuild(): Promise<void> {
  const bundled = node('node console/build.mjs', ['console/build.mjs']);
  if (process.env.TEST_TYPECHECKED === '1') return bundled;
  const tsc = require.resolve('typescript/bin/tsc');
  await Promise.all([node('tsc -p tsconfig.test.json', [tsc, '-p', 'tsconfig.test.json']), bundled.then(() => node('tsc -p console/tsconfig.json', [tsc, '-p', 'console/tsconfig.json']))]);
}

/** Shared memory, where the embedded cluster's folder goes when it has `MEMORY_NEEDED` free. */
const MEMORY = '/dev/shm';
const MEMORY_NEEDED = 1024 ** 3;
/** How the embedded clusters' folders are named, in memory or under `.data`. */
const CLUSTER_PREFIX = 'switchboard-test-pg-';
/** A folder with no running server this old is left over (a server writes its pid file within seconds of the folder's creation). */
const LEFT_OVER_MS = 10 * 60_000;

/** Whether the process `pid` runs (a process of another user answers EPERM: it runs). */
function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the embedded clusters' folders under `parent` that no server uses: a run stopped
 * before its teardown (Ctrl-C) leaves its folder, which in memory would hold RAM until the
 * machine restarts.
 */
async function sweepLeftOvers(parent: string): Promise<void> {
  for (const name of (await readdir(parent)).filter((n) => n.startsWith(CLUSTER_PREFIX))) {
    const dir = path.join(parent, name);
    const pid = await readFile(path.join(dir, 'data', 'postmaster.pid'), 'utf8').then(
      (text) => Number(text.split('\n')[0]),
      () => null,
    );
    // Another run starting at once may be removing the same folder: one gone meanwhile is not left over.
    const age = await stat(dir).then(
      ({ mtimeMs }) => Date.now() - mtimeMs,
      () => 0,
    );
    const leftOver = pid === null ? age > LEFT_OVER_MS : !runs(pid);
    if (leftOver) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Where the embedded cluster's folder goes: in shared memory when it has room (its files
 * then never reach the disk: the clones and drops of the files' databases wrote about 2 GB
 * per run, and the kernel's writing them back cost about 5% of the run's CPU), else under
 * `.data`.
 */
async function clusterParent(): Promise<string> {
  const free = await statfs(MEMORY).then(
    ({ bavail, bsize }) => bavail * bsize,
    () => 0,
  );
  const parent = free >= MEMORY_NEEDED ? MEMORY : path.resolve('.data');
  await mkdir(parent, { recursive: true });
  await sweepLeftOvers(parent);
  return parent;
}

/**
 * One PostgreSQL for the run: DATABASE_URL's server when set, else an embedded, disposable
 * one (no fsync) in a fresh folder (`clusterParent`); and an empty template database on it.
 */
async function startDatabase(): Promise<{ adminUrl: string; template: string; runId: string }> {
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dir = await mkdtemp(path.join(await clusterParent(), CLUSTER_PREFIX));
    await chmod(dir, 0o755); // PostgreSQL runs as the postgres user when we are root
    const db = await startEmbeddedPostgres({ dir: path.join(dir, 'data'), port: await freePort(), database: 'postgres', disposable: true });
    (globalThis as Record<string, unknown>).__testDb = { stop: db.stop, dir };
    adminUrl = db.url;
  }
  const runId = randomBytes(4).toString('hex');
  const template = `sb_test_tmpl_${runId}`;
  await ensureDatabase(adminUrl, template);
  return { adminUrl, template, runId };
}

/**
 * Migrates the template, which each test file then clones. The built admin CLI does it in a
 * process of its own: the ORM keeps its entity metadata on `globalThis`, and jest hands this
 * process's globals to test files run in band, which must discover the entities themselves.
 */
async function migrateTemplate(adminUrl: string, template: string): Promise<void> {
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  await node('migrating the template database', [path.resolve('dist/src/cli/admin.js'), 'migrate'], { DATABASE_URL: url.toString() });
}

/** Stops the embedded server, if this run started one, and removes its folder. */
export async function stopEmbedded(): Promise<void> {
  const embedded = (globalThis as Record<string, unknown>).__testDb as { stop(): Promise<void>; dir: string } | undefined;
  if (!embedded) return;
  await embedded.stop();
  await rm(embedded.dir, { recursive: true, force: true });
}

export default async function globalSetup(): Promise<void> {
  // The browser tests' Chromium is found (or unpacked) once here, not by test files side by side.
  const [built, started, browser] = await Promise.allSettled([typecheckAndBuild(), startDatabase(), chromiumPath()]);
  if (built.status === 'rejected' || started.status === 'rejected' || browser.status === 'rejected') {
    // jest runs no teardown after a failed set-up.
    await stopEmbedded();
    throw [built, started, browser].find((result): result is PromiseRejectedResult => result.status === 'rejected')?.reason;
  }
  const databases = started.value;
  const { adminUrl, template, runId } = databases;
  await migrateTemplate(adminUrl, template).catch(async (err: unknown) => {
    await stopEmbedded();
    throw err;
  });
  process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
  process.env.TEST_TEMPLATE_DATABASE = template;
  process.env.TEST_RUN_ID = runId;
  (globalThis as Record<string, unknown>).__testTemplate = databases;
}
