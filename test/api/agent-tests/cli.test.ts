import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FakeLlm } from '../../support/fake-llm';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { scriptModel } from './support';

const run = promisify(execFile);

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let dir: string;

beforeAll(async () => {
  llm = await FakeLlm.start();
  t = await startTestApp({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '2000' });
  a = await tenant(t, 'A');
  dir = await mkdtemp(join(tmpdir(), 'test-agent-'));
  scriptModel(llm, { agent: (lastUser) => ({ text: lastUser.includes('price') ? 'It costs 10 dollars & no more.' : 'Hello <there>.' }) });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await t.close();
  await llm.close();
});

/** The package's `bin` (package.json), as `npx switchboard` runs it: the built file, run by node. */
async function testAgent(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = JSON.parse(await readFile('package.json', 'utf8')).bin.switchboard as string;
  try {
    const { stdout, stderr } = await run('node', [bin, 'test-agent', ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const scenario = async (agentId: string, name: string, criteria: unknown[]) =>
  okData(await t.request('POST', `/v1/ai-agent/${agentId}/scenarios`, { token: a.key, body: { name, caller_turns: [{ say: 'What is the price?' }], criteria } }));

describe('npx switchboard test-agent', () => {
  it('exits 0 when every scenario passes, printing one line each', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Green', prompt: 'Sell.' } }));
    await scenario(agent.id, 'Quotes the price', [{ type: 'transcript_contains', text: '10 dollars' }]);
    await scenario(agent.id, 'Lets the caller hang up', [{ type: 'ended_by', value: 'caller' }]);
    const out = await testAgent('--url', t.url, '--key', a.key, '--agent', agent.id);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines.slice(0, -1).sort()).toEqual([expect.stringMatching(/^PASS {2}Lets the caller hang up \(\d+\.\d s\)$/), expect.stringMatching(/^PASS {2}Quotes the price \(\d+\.\d s\)$/)]);
    expect(lines.at(-1)).toMatch(/^2 of 2 scenarios passed \(run [0-9a-f-]{36}\)$/);
  });

  it('exits 1 on a failure, names the failing criterion, and writes JUnit XML with the text escaped', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Red', prompt: 'Sell.' } }));
    await scenario(agent.id, 'Quotes <the> "price"', [{ type: 'transcript_contains', text: '10 dollars' }]);
    await scenario(agent.id, 'Never says free', [{ type: 'transcript_not_contains', text: 'dollars & no' }]);
    const file = join(dir, 'report.xml');
    const out = await testAgent('--url', t.url, '--key', a.key, '--agent', agent.id, '--junit', file);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('FAIL  Never says free');
    expect(out.stdout).toContain('transcript_not_contains {"text":"dollars & no"}: The transcript contains "dollars & no"');
    expect(out.stdout).toContain('1 of 2 scenarios passed');
    const xml = await readFile(file, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="switchboard test-agent" tests="2" failures="1" errors="0" time="[\d.]+">/);
    expect(xml).toMatch(
      /<testcase name="Quotes &lt;the&gt; &quot;price&quot;" classname="agent [0-9a-f-]{36}" time="[\d.]+">\n {6}<system-out>Agent: Hello &lt;there&gt;\.\nUser: What is the price\?\nAgent: It costs 10 dollars &amp; no more\.<\/system-out>/,
    );
    expect(xml).toContain('<failure message="transcript_not_contains {&quot;text&quot;:&quot;dollars &amp; no&quot;}: The transcript contains &quot;dollars &amp; no&quot;" type="criteria">');
  });

  it("exits 2 with the service's reason when the run cannot be asked for, or on bad usage", async () => {
    const refused = await testAgent('--url', t.url, '--key', a.key, '--agent', a.agent.id, '--version', '3');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('HTTP 400, Validation failed (version:');
    const unauthorized = await testAgent('--url', t.url, '--key', 'sk_wrong', '--agent', a.agent.id);
    expect(unauthorized).toMatchObject({ code: 2, stdout: '' });
    expect(unauthorized.stderr).toContain('HTTP 401');
    const usage = await testAgent('--url', t.url);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage:');
  });
});
