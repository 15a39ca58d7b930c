import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../../support/harness';
import { PROJECT_ROOT } from '../../../src/project';

const run = promisify(execFile);
const PUBLIC_BASE_URL = 'https://switchboard.acme.test';

/** Redocly phones home unless told not to; tests have no network. */
const QUIET = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/**
 * Runs a linter's CLI from node_modules and returns its stdout: both exit non-zero when they
 * find problems, which the assertions below report one by one instead.
 */
async function lint(bin: string, args: string[]): Promise<string> {
  try {
    return (await run(path.join(PROJECT_ROOT, 'node_modules/.bin', bin), args, { cwd: PROJECT_ROOT, env: QUIET, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    if (!stdout) throw new Error(`${bin} failed without output:\n${stderr ?? ''}`);
    return stdout;
  }
}

let t: TestApp;
let dir: string;
let file: string;

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_BASE_URL });
  dir = await mkdtemp(path.join(tmpdir(), 'openapi-lint-'));
  file = path.join(dir, 'openapi.json');
  await writeFile(file, (await t.request('GET', '/openapi.json', { token: null })).text);
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the served OpenAPI document passes third-party linters', () => {
  it('names this deployment as its server', async () => {
    const doc = (await t.request('GET', '/openapi.json', { token: null })).body;
    expect(doc.servers).toEqual([{ url: PUBLIC_BASE_URL, description: expect.any(String) }]);
  });

  it('is clean under Redocly (recommended ruleset, redocly.yaml)', async () => {
    const out = JSON.parse(await lint('redocly', ['lint', file, '--format=json'])) as {
      problems: { ruleId: string; severity: string; message: string }[];
    };
    expect(out.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  }, 60_000);

  it('is clean under Spectral (spectral:oas, .spectral.yaml)', async () => {
    const out = JSON.parse(await lint('spectral', ['lint', file, '--format=json', '--quiet'])) as { code: string; message: string; path: string[] }[];
    expect(out.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`)).toEqual([]);
  }, 60_000);
});
