import 'reflect-metadata';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startApp } from '../src/app';
import { benchDatabase, inProcessConfig } from './database';
import { createLogger } from '../src/logger';

/**
 * Places CALLS calls through `POST /v1/calls/make-call` (CONCURRENCY at a time) with
 * zero-length simulated timings, and measures, in one run:
 * - calls completed per second, end to end (first request to last call completed, read in
 *   the database);
 * - the delay from each transition (the call's `updatedAt`, stamped when the transition is
 *   stored) to its delivery to a graphql-ws subscriber of `callStatusChanged`, and how many
 *   events reached it (a subscriber too slow for the stream misses the oldest: docs/graphql.md).
 * The service runs in this process; traffic stays on 127.0.0.1.
 * `npm run bench:calls`, on a fresh database (on DATABASE_URL's server, or an embedded PostgreSQL).
 */
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const CONCURRENCY = 20;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const db = await benchDatabase();
  // Rate limits off: 2,000 make-calls a minute are far over them; this measures the call engine.
  const config = inProcessConfig(db.url, { MAX_CONCURRENT_CALLS_PER_COMPANY: String(CALLS) });
  const app = await startApp(config, createLogger(config.logLevel));
  const em = app.orm.em.fork();
  const { companyId, apiKey } = await app.services.auth.createCompany(em, { name: 'Call benchmark' });
  const caller = { scope: { companyId, userId: null }, em };
  const agent = await app.services.agents.create(caller, { name: 'Bench agent', prompt: 'Say hello.' });
  await app.services.phoneNumbers.create(caller, { phone_number: '+14155552671' });

  const delays: number[] = [];
  const ws = createClient({ url: `${app.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${apiKey}` } });
  const ready = new Promise<void>((resolve) => ws.on('connected', () => resolve()));
  const unsubscribe = ws.subscribe<{ callStatusChanged: { updatedAt: string } }>(
    { query: 'subscription { callStatusChanged(workspace: "bench") { updatedAt } }' },
    {
      next: ({ data }) => {
        if (!data) return;
        delays.push(Date.now() - Date.parse(data.callStatusChanged.updatedAt));
      },
      error: (err) => console.error('subscription error', err),
      complete: () => undefined,
    },
  );
  await ready;

  const body = JSON.stringify({ ai_agent_id: agent.id, call_from: '+14155552671', call_to: '+14155550123', workspace: 'bench' });
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const started = Date.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) {
        next += 1;
        const res = await fetch(`${app.url}/v1/calls/make-call`, { method: 'POST', headers, body });
        if (!res.ok) failed += 1;
        await res.arrayBuffer();
      }
    }),
  );
  const placedMs = Date.now() - started;
  const completedCount = async () =>
    ((await em.execute(`select count(*)::int as n from calls where company_id = ? and call_status = 'completed'`, [companyId]))[0]?.n ?? 0) as number;
  const deadline = Date.now() + 600_000;
  while ((await completedCount()) < CALLS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const totalMs = Date.now() - started;
  const row = { n: await completedCount() };
  await new Promise((r) => setTimeout(r, 1000));

  delays.sort((x, y) => x - y);
  console.log(`calls placed:                 ${CALLS} in ${(placedMs / 1000).toFixed(1)} s (${((CALLS / placedMs) * 1000).toFixed(0)} make-calls/s, ${failed} failed)`);
  console.log(`calls completed (database):   ${row.n}`);
  console.log(`completed end to end:         ${((row.n / totalMs) * 1000).toFixed(0)} calls/s (${(totalMs / 1000).toFixed(1)} s)`);
  console.log(`events delivered:             ${delays.length} of about ${CALLS * 4} transitions`);
  console.log(`transition -> subscriber:     p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms, max ${delays[delays.length - 1]} ms`);
  unsubscribe();
  await ws.dispose();
  await app.close();
  await db.drop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
