import pg from 'pg';
import { stopEmbedded } from './global-setup';

/** Drops the template (and anything a crashed test file left behind), stops the embedded server. */
export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  const { adminUrl, template, runId } = g.__testTemplate as { adminUrl: string; template: string; runId: string };
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const left = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`sb_test_${runId}_%`]);
  for (const { datname } of [...left.rows, { datname: template }]) {
    await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
  await client.end();
  await stopEmbedded();
}
