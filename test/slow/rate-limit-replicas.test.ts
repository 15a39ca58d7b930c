import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { batchSize } from '../../src/services/platform/rate-limit-buckets';
import { createTestDatabase } from '../support/harness';
import { killReplicas, listening, type Replica, spawnReplica } from '../support/replicas';

// Two replicas (real processes) share each limit through the store, each reserving points in
// batches: a caller is never served past a limit, and is refused at most
// batchSize(limit) x (replicas - 1) requests early (docs/operations.md, "Rate limits").

const PER_CREDENTIAL = 500;
const PER_COMPANY = 800;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = path.resolve('dist/src/cli/admin.js');

let db: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  db = await createTestDatabase();
}, 30_000);
afterAll(() => db.drop(), 30_000);

async function admin(...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)(process.execPath, [ADMIN, ...args], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url } });
  return JSON.parse(stdout) as Record<string, string>;
}

const list = async (replica: Replica, key: string) => (await fetch(`${replica.url}/v1/campaigns/list`, { headers: { authorization: `Bearer ${key}` } })).status;

/** Sends requests one after the other until one is refused; answers how many were served. */
async function servedUntilRefused(replica: Replica, key: string): Promise<number> {
  for (let served = 0; ; served++) {
    const status = await list(replica, key);
    if (status === 429) return served;
    expect(status).toBe(200);
  }
}

describe.each([
  ['PostgreSQL', {}],
  ['Redis', { REDIS_URL }],
])('rate limits of two replicas, counted in %s', (_store, storeEnv) => {
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    const env = { ...storeEnv, SEED_DEMO: '0', RATE_LIMIT_PER_CREDENTIAL: String(PER_CREDENTIAL), RATE_LIMIT_PER_COMPANY: String(PER_COMPANY) };
    [a, b] = await Promise.all([spawnReplica('a', db.url, env), spawnReplica('b', db.url, env)]);
    await Promise.all([listening(a), listening(b)]);
  }, 90_000);
  afterAll(() => killReplicas([a, b]));

  it('never serves a credential past its limit, and refuses it at most one batch early per other replica', async () => {
    const { api_key: key } = await admin('create-company', '--name', 'Sequential');
    const batch = batchSize(PER_CREDENTIAL);
    // b reserves a batch and uses one point of it; a then serves the rest of the store.
    expect(await list(b, key)).toBe(200);
    expect(await servedUntilRefused(a, key)).toBe(PER_CREDENTIAL - batch);
    expect(await servedUntilRefused(b, key)).toBe(batch - 1);
    expect(await list(a, key)).toBe(429);
  }, 120_000);

  it('serves at most the limit to concurrent requests spread over both replicas', async () => {
    const { api_key: key } = await admin('create-company', '--name', 'Concurrent');
    const statuses = await Promise.all(Array.from({ length: PER_CREDENTIAL + 100 }, (_, i) => list(i % 2 ? a : b, key)));
    const served = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(served).toBeLessThanOrEqual(PER_CREDENTIAL);
    expect(served).toBeGreaterThanOrEqual(PER_CREDENTIAL - batchSize(PER_CREDENTIAL));
  }, 120_000);

  it('holds the per-company limit over every credential of the company on both replicas', async () => {
    const { company_id: companyId, api_key: first } = await admin('create-company', '--name', 'Two keys');
    const { api_key: second } = await admin('create-api-key', '--company', companyId);
    const { api_key: other } = await admin('create-company', '--name', 'Other');
    const onA = await servedUntilRefused(a, first);
    expect(onA).toBe(PER_CREDENTIAL);
    const onB = await servedUntilRefused(b, second);
    expect(onA + onB).toBeLessThanOrEqual(PER_COMPANY);
    expect(onA + onB).toBeGreaterThanOrEqual(PER_COMPANY - batchSize(PER_COMPANY));
    // Another company is untouched.
    expect(await list(a, other)).toBe(200);
    expect(await list(b, other)).toBe(200);
  }, 120_000);
});
