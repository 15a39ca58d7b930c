/**
 * Flow engine benchmark: N single-step executions triggered over the REST API (one process:
 * app and job workers) against a local receiver (a child process, as a customer's endpoint
 * would be), all on this machine with its PostgreSQL.
 * Prints executions per second (first trigger to last execution stored `success`) and the
 * latency from trigger to delivery (trigger request sent to the receiver's receipt).
 *
 *   npm run bench:flows                                   # 5,000 executions, embedded PostgreSQL
 *   DATABASE_URL=postgres://... npm run bench:flows       # a throw-away database on that server
 *   BENCH_EXECUTIONS=1000 BENCH_CONCURRENCY=32 npm run bench:flows   # defaults: 5000, 16
 */
import 'reflect-metadata';
import http from 'node:http';
import type net from 'node:net';
import { Agent, request } from 'undici';
import { type RunningApp, startApp } from '../src/app';
import { loadConfig } from '../src/config';
import { forkChild } from './child';
import { analyzeAfterWarmUp, benchDatabase } from './database';
import { percentile } from './report';
import { type Statement, statementLines, statementProfile } from './statements';
import { createLogger } from '../src/logger';

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
const now = () => performance.timeOrigin + performance.now();

type Command = { type: 'trigger'; appUrl: string; key: string; flowId: string; from: number; to: number; concurrency: number } | { type: 'report' };

/**
 * The outside world, in a child process: the receiver (answers 200 at once, notes when each
 * execution's request arrived) and the client that triggers executions over REST, so that
 * neither shares the app's event loop.
 */
function outsideProcess(): void {
  const delivered: Record<number, number> = {};
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { n } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { n: number };
      delivered[n] ??= now();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as net.AddressInfo).port }));
  let agent: Agent | undefined;
  process.on('message', (command: Command) => {
    if (command.type === 'report') return process.send!({ delivered }, () => process.exit(0));
    agent ??= new Agent({ connections: command.concurrency, keepAliveTimeout: 30_000 });
    void triggerAll(agent, command).then((started) => process.send!({ started }));
  });
}

/** Triggers executions `from` to `to` - 1, at most `concurrency` in flight; answers when each started. */
async function triggerAll(agent: Agent, { appUrl, key, flowId, from, to, concurrency }: Command & { type: 'trigger' }): Promise<Record<number, number>> {
  const started: Record<number, number> = {};
  let next = from;
  const lane = async () => {
    while (next < to) {
      const n = next++;
      started[n] = now();
      const res = await request(`${appUrl}/v1/webhooks/${flowId}/trigger`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ variables: { n } }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`trigger: HTTP ${res.statusCode} ${text}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return started;
}

interface Outside {
  receiverUrl: string;
  trigger(command: Omit<Command & { type: 'trigger' }, 'type'>): Promise<Record<number, number>>;
  /** Ends the child process; answers when each execution was delivered. */
  report(): Promise<Record<number, number>>;
}

async function startOutside(): Promise<Outside> {
  const child = await forkChild<{ port: number }>(__filename, 'outside');
  return {
    receiverUrl: `http://127.0.0.1:${child.ready.port}`,
    trigger: async (command) => (await child.ask<{ started: Record<number, number> }>({ type: 'trigger', ...command })).started,
    report: async () => (await child.ask<{ delivered: Record<number, number> }>({ type: 'report' })).delivered,
  };
}

/**
 * Executions run before the measured ones, not counted: until V8 has compiled the hot path,
 * a short run measures the interpreter (1,000 executions after 200: 449/s; after 2,000: 604/s).
 */
const WARM_UP = 1000;

async function waitForSuccesses(app: RunningApp, flowId: string, count: number): Promise<void> {
  const em = app.orm.em.fork();
  const deadline = Date.now() + 600_000;
  for (;;) {
    const [row] = await em.execute(`select count(*)::int as n from webhook_executions where flow_id = ? and status = 'success'`, [flowId]);
    if (row.n >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${row.n} of ${count} executions succeeded within 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface FlowFigures {
  executions: number;
  triggersPerS: number;
  executionsPerS: number;
  totalMs: number;
  /** Trigger request sent to the receiver's receipt, ascending. */
  latencies: number[];
  statements: Statement[];
}

async function run(app: RunningApp, outside: Outside, databaseUrl: string, executions: number, concurrency: number): Promise<FlowFigures> {
  const { companyId, apiKey } = await app.services.auth.createCompany(app.orm.em.fork(), { name: 'Bench' });
  const caller = { scope: { companyId, userId: null }, em: app.orm.em.fork() };
  const steps = [{ stepNumber: 1, webhookUrl: `${outside.receiverUrl}/hook`, webhookBody: { n: '{{n}}' } }];
  const flow = await app.services.webhooks.create(caller, { name: 'Bench', steps });
  const run = { appUrl: app.url, key: apiKey, flowId: flow.id, concurrency };
  const warmUp = WARM_UP;
  await outside.trigger({ ...run, from: -warmUp, to: 0 });
  await waitForSuccesses(app, flow.id, warmUp);
  await analyzeAfterWarmUp(databaseUrl);
  const profile = await statementProfile(databaseUrl);
  try {
    await profile.start();
    const t0 = performance.now();
    const started = await outside.trigger({ ...run, from: 0, to: executions });
    const triggeredMs = performance.now() - t0;
    await waitForSuccesses(app, flow.id, warmUp + executions);
    const totalMs = performance.now() - t0;
    const statements = await profile.top(executions);
    const delivered = await outside.report();
    const latencies = Array.from({ length: executions }, (_, n) => delivered[n] - started[n]).sort((a, b) => a - b);
    return { executions, triggersPerS: executions / (triggeredMs / 1000), executionsPerS: executions / (totalMs / 1000), totalMs, latencies, statements };
  } finally {
    await profile.close();
  }
}

/**
 * `executions` single-step executions triggered over REST, `concurrency` at a time, against
 * a receiver in a child process; the service (with its job workers) in this process.
 */
export async function measureFlows({ executions, concurrency }: { executions: number; concurrency: number }): Promise<FlowFigures> {
  const db = await benchDatabase();
  const outside = await startOutside();
  const config = loadConfig({
    RATE_LIMIT_ENABLED: '0', // measures the flow engine: thousands of triggers a minute are far over the limit
    ...process.env,
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  });
  const app = await startApp(config, createLogger(config.logLevel));
  try {
    return await run(app, outside, db.url, executions, concurrency);
  } finally {
    await app.close();
    await db.drop();
  }
}

async function main(): Promise<void> {
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
  const f = await measureFlows({ executions: Number(process.env.BENCH_EXECUTIONS ?? 5000), concurrency });
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(`executions:             ${f.executions} single-step, ${concurrency} concurrent triggers over REST`);
  console.log(`triggers accepted:      ${f.triggersPerS.toFixed(0)} /s`);
  console.log(`executions completed:   ${f.executionsPerS.toFixed(0)} /s  (${(f.totalMs / 1000).toFixed(2)} s, first trigger to last success stored)`);
  console.log(`trigger -> delivery:    p50 ${ms(percentile(f.latencies, 50))}, p90 ${ms(percentile(f.latencies, 90))}, p99 ${ms(percentile(f.latencies, 99))}, max ${ms(f.latencies.at(-1)!)}`);
  for (const line of statementLines('the executions (per execution)', f.statements)) console.log(line);
}

if (process.argv[2] === 'outside') {
  outsideProcess();
} else if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
