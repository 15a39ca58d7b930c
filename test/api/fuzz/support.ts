import fc from 'fast-check';
import pg from 'pg';
import { insertCalls, insertExecutions } from '../graphql/records';
import { type Tenant, tenant } from '../../support/fixtures';
import { jsonOrUndefined, startTestApp, type TestApp } from '../../support/harness';

/**
 * Runs per property: small in CI, `FUZZ_RUNS` for a longer run (`npm run fuzz`). The seed is
 * fixed in CI (the same cases every run, so a red build is reproducible); a longer run picks
 * a fresh one unless `FUZZ_SEED` is given. fast-check prints the seed and shrunk
 * counterexample of a failure; `FUZZ_SEED` replays it.
 */
export function fuzzParameters(ciRuns: number): fc.Parameters<unknown> {
  const runs = Number(process.env.FUZZ_RUNS) || undefined;
  const seed = Number(process.env.FUZZ_SEED) || (runs ? undefined : 20261122);
  return { numRuns: runs ?? ciRuns, ...(seed === undefined ? {} : { seed }) };
}

/**
 * A service with a quiet background (no job workers, so nothing but the fuzzed request
 * writes) and two companies with one record of every kind, plus a call and an execution.
 */
export interface FuzzWorld {
  t: TestApp;
  a: Tenant & { callId: string; executionId: string };
  b: Tenant & { callId: string; executionId: string };
}

async function withRuns(t: TestApp, who: Tenant): Promise<FuzzWorld['a']> {
  const [call] = await insertCalls(t, who, 1);
  const [execution] = await insertExecutions(t, who, 1);
  return { ...who, callId: call.id, executionId: execution.id };
}

export async function fuzzWorld(): Promise<FuzzWorld> {
  const t = await startTestApp({ JOB_WORKERS: '0' });
  const a = await withRuns(t, await tenant(t, 'A'));
  const b = await withRuns(t, await tenant(t, 'B', '+14155552672'));
  return { t, a, b };
}

/** Every id a tenant owns, of every kind. */
export const idsOf = (x: FuzzWorld['a']): string[] => [x.agent.id, x.number.id, x.campaign.id, x.contact.id, x.flow.id, x.callId, x.executionId];

/** Names only company B's records carry: a response to company A must never contain them. */
export const B_ONLY = ['B agent', 'B flow', 'B campaign'];

/**
 * The rows written to every table of the service (pg-boss's own schema aside: a refused
 * request enqueues nothing, and its maintenance is not ours; and the rate-limit counters
 * aside, which count every request by design), counted by triggers installed on this test's
 * own database: each row inserted, deleted, or updated to different values adds a line to
 * `fuzz.writes` in the writing transaction (a write rolled back leaves none). Equal counts
 * before and after a request mean it wrote nothing. (A checksum of every table per request
 * said the same at a full scan of each.) The idempotency keys are judged by what is left:
 * a refused mutation with a key claims the key and releases it (only successes are kept,
 * src/graphql/idempotency.ts), two writes that leave the table as it was; their checksum
 * stands for them.
 */
export class Snapshots {
  private constructor(private readonly client: pg.Client) {}

  static async open(databaseUrl: string): Promise<Snapshots> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('mikro_orm_migrations', 'rate_limits', 'idempotency_keys') ORDER BY table_name`,
    );
    await client.query(`
      CREATE SCHEMA fuzz;
      CREATE TABLE fuzz.writes (name text NOT NULL);
      CREATE FUNCTION fuzz.write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO fuzz.writes VALUES (TG_TABLE_NAME); RETURN NULL; END $$;
      ${rows
        .map(
          ({ table_name: name }) => `
      CREATE TRIGGER fuzz_write AFTER INSERT OR DELETE ON "${name}" FOR EACH ROW EXECUTE FUNCTION fuzz.write();
      CREATE TRIGGER fuzz_change AFTER UPDATE ON "${name}" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION fuzz.write();`,
        )
        .join('')}`);
    return new Snapshots(client);
  }

  /** The rows written so far, by table, and the idempotency keys' checksum. */
  async take(): Promise<Record<string, string>> {
    const { rows } = await this.client.query<{ name: string; n: string }>(
      `SELECT name, count(*)::text AS n FROM fuzz.writes GROUP BY name
       UNION ALL SELECT 'idempotency_keys', md5(coalesce(string_agg(k::text, ',' ORDER BY k::text), '')) FROM idempotency_keys k`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.n]));
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

export interface RawResponse {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
}

/** One HTTP request with exactly these headers and bytes (no defaults added). */
export async function send(url: string, method: string, headers: Record<string, string>, body?: string | Uint8Array): Promise<RawResponse> {
  const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, body: jsonOrUndefined(text) };
}

export { fc };
