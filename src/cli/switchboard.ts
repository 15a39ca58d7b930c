#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { type JUnitCase, junitXml } from './junit';

/**
 * The package's command, for CI (docs/agents.md, "Running the suite in CI"): `test-agent` runs
 * an agent's test scenarios on a Switchboard service over its REST API, prints one line per
 * scenario as it finishes, writes JUnit XML with `--junit`, and exits 0 when every scenario
 * passed, 1 when one did not, 2 on bad usage or when the run could not be asked for or followed.
 */

const USAGE = `Usage:
  npx switchboard test-agent --url URL --key KEY --agent ID [--version N] [--junit FILE] [--timeout SECONDS]

  --url       the service's base URL (https://switchboard.example.com)
  --key       an API key (sk_...) or a JWT of the agent's company
  --agent     the agent's id
  --version   a published version to test (default: the draft)
  --junit     write a JUnit XML report to FILE
  --timeout   give up after this many seconds (default 900)`;

const POLL_MS = 500;

class UsageError extends Error {}

interface CriterionResult {
  criterion: { type: string } & Record<string, unknown>;
  passed: boolean;
  reason: string;
}

interface ScenarioRun {
  name: string;
  status: 'pending' | 'passed' | 'failed' | 'error';
  passed: boolean | null;
  criteria: CriterionResult[];
  transcript: { role: string; text: string }[];
  error: string | null;
  duration_ms: number | null;
}

interface TestRun {
  id: string;
  status: 'queued' | 'running' | 'passed' | 'failed';
  scenarios: ScenarioRun[];
}

interface Options {
  url: string;
  key: string;
  agent: string;
  version: number | null;
  junit: string | null;
  timeoutS: number;
}

function options(argv: string[]): Options {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { url: { type: 'string' }, key: { type: 'string' }, agent: { type: 'string' }, version: { type: 'string' }, junit: { type: 'string' }, timeout: { type: 'string' } },
  });
  if (positionals[0] !== 'test-agent' || positionals.length !== 1 || !values.url || !values.key || !values.agent) throw new UsageError(USAGE);
  const version = values.version === undefined ? null : Number(values.version);
  const timeoutS = values.timeout === undefined ? 900 : Number(values.timeout);
  if (version !== null && !(Number.isInteger(version) && version > 0)) throw new UsageError(`--version must be a positive integer\n\n${USAGE}`);
  if (!(Number.isFinite(timeoutS) && timeoutS > 0)) throw new UsageError(`--timeout must be a positive number of seconds\n\n${USAGE}`);
  return { url: values.url.replace(/\/+$/, ''), key: values.key, agent: values.agent, version, junit: values.junit ?? null, timeoutS };
}

/** One REST call; a failure envelope or HTTP error throws with the service's message and field errors. */
async function rest<T>(o: Options, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${o.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${o.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let envelope: { status?: string; message?: string; data?: unknown } = {};
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    throw new Error(`${method} ${path}: HTTP ${res.status}, not a JSON answer`);
  }
  if (!res.ok || envelope.status !== 'ok') {
    const fields = Array.isArray(envelope.data) ? ` (${envelope.data.map((f: { field?: string; message?: string }) => `${f.field}: ${f.message}`).join('; ')})` : '';
    throw new Error(`${method} ${path}: HTTP ${res.status}, ${envelope.message ?? 'error'}${fields}`);
  }
  return envelope.data as T;
}

const describeCriterion = ({ type, ...fields }: CriterionResult['criterion']) => `${type}${Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : ''}`;
const failedCriteria = (s: ScenarioRun) => s.criteria.filter((c) => !c.passed).map((c) => `${describeCriterion(c.criterion)}: ${c.reason}`);
const seconds = (s: ScenarioRun) => (s.duration_ms ?? 0) / 1000;

function line(s: ScenarioRun): string {
  const time = `(${seconds(s).toFixed(1)} s)`;
  if (s.status === 'passed') return `PASS  ${s.name} ${time}`;
  if (s.status === 'error') return `ERROR ${s.name} ${time}: ${s.error ?? 'could not be run'}`;
  return `FAIL  ${s.name} ${time}: ${[...failedCriteria(s), ...(s.error ? [s.error] : [])].join('; ')}`;
}

const junitCase = (s: ScenarioRun): JUnitCase => ({
  name: s.name,
  seconds: seconds(s),
  failures: failedCriteria(s),
  error: s.status === 'error' ? (s.error ?? 'could not be run') : null,
  output: s.transcript.map((t) => `${t.role === 'agent' ? 'Agent' : 'User'}: ${t.text}`).join('\n'),
});

/** Starts the run, prints each scenario once it has finished, and answers the run once it is over. */
async function follow(o: Options): Promise<TestRun> {
  let run = await rest<TestRun>(o, 'POST', `/v1/ai-agent/${encodeURIComponent(o.agent)}/test-runs`, o.version === null ? {} : { version: o.version });
  const printed = new Set<number>();
  const deadline = Date.now() + o.timeoutS * 1000;
  for (;;) {
    run.scenarios.forEach((s, i) => {
      if (s.status === 'pending' || printed.has(i)) return;
      printed.add(i);
      process.stdout.write(`${line(s)}\n`);
    });
    if (run.status === 'passed' || run.status === 'failed') return run;
    if (Date.now() > deadline) throw new Error(`The run ${run.id} did not finish within ${o.timeoutS} s`);
    await sleep(POLL_MS);
    run = await rest<TestRun>(o, 'GET', `/v1/agent-test-runs/${run.id}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const o = options(argv);
  const started = new Date();
  const run = await follow(o);
  const passed = run.scenarios.filter((s) => s.status === 'passed').length;
  process.stdout.write(`${passed} of ${run.scenarios.length} scenarios passed (run ${run.id})\n`);
  if (o.junit) await writeFile(o.junit, junitXml(`agent ${o.agent}${o.version === null ? '' : ` v${o.version}`}`, started, run.scenarios.map(junitCase)));
  return run.status === 'passed' ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
