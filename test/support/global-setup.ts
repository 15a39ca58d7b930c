import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { ensureDatabase, startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { openDatabase } from '../../src/db/orm';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * One PostgreSQL for the run: DATABASE_URL's server when set, else an embedded one in a
 * fresh folder. A template database is migrated once; each test file clones it.
 */
export default async function globalSetup(): Promise<void> {
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
  process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
  process.env.TEST_TEMPLATE_DATABASE = template;
  process.env.TEST_RUN_ID = runId;
  (globalThis as Record<string, unknown>).__testTemplate = { adminUrl, template, runId };
}
