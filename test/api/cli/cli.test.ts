import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { JOB_POLICIES } from '../../../src/services/platform/jobs/job-catalogue';
import { okData } from '../../support/fixtures';
import { createTestDatabase, startTestApp, type TestApp } from '../../support/harness';

const run = promisify(execFile);

let t: TestApp;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function exec(file: string, args: string[], env: Record<string, string>): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(file, args, { env: { ...process.env, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// What `npm run --silent admin` runs once it has built dist: the global set-up built it for
// the run, and a build here would rewrite dist under the suites running beside this one.
const admin = (...args: string[]) => exec('node', ['dist/src/cli/admin.js', ...args], { DATABASE_URL: t.databaseUrl });

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('admin CLI (dist/src/cli/admin.js, behind npm run --silent admin)', () => {
  it('create-company prints exactly one JSON line whose key works', async () => {
    const out = await admin('create-company', '--name', 'Initech');
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(Object.keys(created).sort()).toEqual(['api_key', 'company_id']);
    expect(created.api_key).toMatch(/^sk_/);
    expect(okData(await t.request('GET', '/v1/campaigns/list', { token: created.api_key }))).toEqual([]);

    const more = await admin('create-api-key', '--company', created.company_id);
    expect(more.code).toBe(0);
    const { api_key } = JSON.parse(more.stdout.trim());
    expect(api_key).not.toBe(created.api_key);
    expect((await t.request('GET', '/v1/ai-agent', { token: api_key })).status).toBe(200);
  }, 90_000);

  it('list-companies prints every company, oldest first, with the ids create-api-key takes', async () => {
    const { companyId } = await t.company('Listed Co');
    const out = await admin('list-companies');
    expect(out.code).toBe(0);
    const { companies } = JSON.parse(out.stdout.trim());
    const listed = companies.find((c: any) => c.id === companyId);
    expect(listed).toEqual({ id: companyId, name: 'Listed Co', created_at: expect.any(String) });
    const times = companies.map((c: any) => Date.parse(c.created_at));
    expect(times).toEqual([...times].sort((x: number, y: number) => x - y));
  }, 90_000);

  it('revoke-api-key revokes a key once: refused from then on (it was never trusted by this replica yet)', async () => {
    const { apiKey } = await t.company('Revoking');
    const out = await admin('revoke-api-key', '--key', apiKey);
    expect(out).toMatchObject({ code: 0, stdout: '{"revoked":true}\n' });
    expect((await t.request('GET', '/v1/ai-agent', { token: apiKey })).status).toBe(401);
    const again = await admin('revoke-api-key', '--key', apiKey);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toContain('API key not found');
  }, 60_000);

  it('migrate prepares an empty database (every migration, every job queue), again with nothing left to do, and prints one JSON line', async () => {
    const db = await createTestDatabase({ empty: true });
    try {
      for (let run = 0; run < 2; run++) {
        expect(await exec('node', ['dist/src/cli/admin.js', 'migrate'], { DATABASE_URL: db.url })).toMatchObject({ code: 0, stdout: '{"migrated":true}\n' });
      }
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const queues = await client.query<{ name: string }>('SELECT name FROM pgboss.queue ORDER BY name');
        expect(queues.rows.map((q) => q.name)).toEqual(Object.keys(JOB_POLICIES).sort());
        const calls = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'calls'");
        expect(calls.rows[0].n).toBe(1);
      } finally {
        await client.end();
      }
    } finally {
      await db.drop();
    }
  }, 90_000);

  it('fails with a message on stderr and nothing on stdout for bad input', async () => {
    const unknown = await admin('create-api-key', '--company', '00000000-0000-4000-8000-000000000000');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('Company not found');
    const usage = await admin('create-company');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('Usage');
  }, 60_000);
});

describe('service start-up', () => {
  it('stops with one JSON line naming each bad variable', async () => {
    const out = await exec('node', ['dist/src/main.js'], { PORT: 'eighty', DEFAULT_PHONE_REGION: 'usa', DATABASE_URL: t.databaseUrl });
    expect(out.code).toBe(1);
    const lines = out.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { level: number; msg: string };
    expect(line.level).toBe(60);
    expect(line.msg).toContain('PORT');
    expect(line.msg).toContain('DEFAULT_PHONE_REGION');
    expect(out.stdout).toBe('');
  });
});
