import 'reflect-metadata';
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type autocannon from 'autocannon';
import pg from 'pg';
import { type RunningApp, startApp } from '../src/app';
import { loadConfig } from '../src/config';
import { Company } from '../src/entities';
import { createLogger } from '../src/logger';
import { BENCH_DATABASE } from './database';

const run = promisify(execFile);

/**
 * What rate limiting costs a by-id read: `GET /v1/campaigns/by-id/{id}` on a service with
 * limits on (set out of reach, so every request is counted and none refused) and on one with
 * limits off, against a bare node:http + pg server answering the same row by primary key.
 * All three run in this process on one database; the load comes from an autocannon process
 * over 127.0.0.1, the targets measured in alternation so that drift hits each.
 * `npm run bench:rate-limits` (DATABASE_URL optional: the embedded PostgreSQL otherwise).
 */
const CONNECTIONS = 10;
const WARMUP_S = 3;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = 3;

const OUT_OF_REACH = '1000000000';

async function service(env: Record<string, string>): Promise<RunningApp> {
  const config = loadConfig({
    ...BENCH_DATABASE,
    ...process.env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    JOB_WORKERS: '0',
    RATE_LIMIT_PER_CREDENTIAL: OUT_OF_REACH,
    RATE_LIMIT_PER_COMPANY: OUT_OF_REACH,
    ...env,
  });
  return startApp(config, createLogger(config.logLevel));
}

/** The reference: node:http and a pg pool of 10, one primary-key SELECT per request. */
async function bareServer(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const server = http.createServer((req, res) => {
    const id = req.url!.split('/').pop();
    pool.query('select * from campaigns where id = $1', [id]).then(
      ({ rows }) => {
        res.writeHead(rows.length ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'ok', message: 'ok', data: rows[0] ?? null }));
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}

interface Target {
  name: string;
  url: string;
}

interface Measured {
  result: autocannon.Result;
  /** CPU milliseconds of this process (the servers) per request served. */
  cpuMs: number;
}

/**
 * autocannon runs in a process of its own, so that this process's CPU time is the servers'
 * alone: on a busy machine, CPU per request is steadier than requests per second.
 */
async function measure(target: Target, headers: Record<string, string>, seconds: number): Promise<Measured> {
  const args = ['-j', '-c', String(CONNECTIONS), '-d', String(seconds), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), target.url];
  const before = process.cpuUsage();
  const { stdout } = await run(process.execPath, [require.resolve('autocannon/autocannon.js'), ...args], { maxBuffer: 16 * 1024 * 1024 });
  const { user, system } = process.cpuUsage(before);
  const result = JSON.parse(stdout) as autocannon.Result;
  return { result, cpuMs: (user + system) / 1000 / Math.max(1, result.requests.total) };
}

function row(name: string, { result: r, cpuMs }: Measured): string {
  const failed = r.non2xx + r.errors + r.timeouts;
  return [
    name.padEnd(24),
    `cpu ${cpuMs.toFixed(3)} ms/req`,
    `${r.requests.average.toFixed(0).padStart(6)} req/s`,
    `mean ${r.latency.average.toFixed(2).padStart(6)} ms`,
    `p99 ${String(r.latency.p99).padStart(3)} ms`,
    `${r.requests.total} requests${failed ? `, ${failed} FAILED` : ''}`,
  ].join('  ');
}

async function main(): Promise<void> {
  const on = await service({ RATE_LIMIT_ENABLED: '1' });
  const databaseUrl = on.orm.config.get('clientUrl')!;
  const off = await service({ RATE_LIMIT_ENABLED: '0', DATABASE_URL: databaseUrl });
  const bare = await bareServer(databaseUrl);
  const em = on.orm.em.fork();
  const { companyId, apiKey } = await on.services.auth.createCompany(em, { name: 'Benchmark' });
  try {
    const caller = { scope: { companyId, userId: null }, em };
    const agent = await on.services.agents.create(caller, { name: 'Bench agent' });
    const campaign = await on.services.campaigns.create(caller, { name: 'Bench campaign', aiAgentId: agent.id });
    const path = `/v1/campaigns/by-id/${campaign.id}`;
    const targets: Target[] = [
      { name: 'limits on', url: `${on.url}${path}` },
      { name: 'limits off', url: `${off.url}${path}` },
      { name: 'bare node:http + pg', url: `${bare.url}${path}` },
    ];
    const headers = { authorization: `Bearer ${apiKey}` };
    process.stdout.write(`GET ${path}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each after ${WARMUP_S} s of warm-up\n`);
    for (const target of targets) await measure(target, headers, WARMUP_S);
    const rps = targets.map(() => 0);
    const cpu = targets.map(() => 0);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, target] of targets.entries()) {
        const measured = await measure(target, headers, DURATION_S);
        rps[i] += measured.result.requests.average / ROUNDS;
        cpu[i] += measured.cpuMs / ROUNDS;
        process.stdout.write(`${row(`${round}. ${target.name}`, measured)}\n`);
      }
    }
    const pct = (values: number[], a: number, b: number) => `${((values[a] / values[b]) * 100).toFixed(0)}%`;
    const ms = (values: number[]) => values.map((v) => v.toFixed(3)).join(' / ');
    process.stdout.write(`Requests/s (on / off / bare): ${rps.map((v) => v.toFixed(0)).join(' / ')}; on/off ${pct(rps, 0, 1)}, on/bare ${pct(rps, 0, 2)}, off/bare ${pct(rps, 1, 2)}\n`);
    process.stdout.write(`CPU ms/req  (on / off / bare): ${ms(cpu)}; limiting adds ${(cpu[0] - cpu[1]).toFixed(3)} ms per request\n`);
  } finally {
    await em.fork().nativeDelete(Company, { id: companyId });
    await bare.close();
    await off.close();
    await on.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`Benchmark failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
