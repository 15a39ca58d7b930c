import 'reflect-metadata';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startApp } from '../src/app';
import { createLogger } from '../src/logger';
import { forkChild } from './child';
import { analyzeAfterWarmUp, benchDatabase, inProcessConfig } from './database';
import { percentile } from './report';
import { type Statement, statementLines, statementProfile } from './statements';

/**
 * Places `calls` calls through `POST /v1/calls/make-call` (`concurrency` at a time) with
 * zero-length simulated timings, and measures, in one run:
 * - calls completed per second, end to end (first request to last call completed, read in
 *   the database);
 * - the delay from each transition (the call's `updatedAt`, stamped when the transition is
 *   stored) to its delivery to a graphql-ws subscriber of `callStatusChanged`, and how many
 *   events reached it (a subscriber too slow for the stream misses the oldest: docs/graphql.md).
 * The service runs in this process; the HTTP client and the subscriber in a child process, so
 * that neither shares its event loop; traffic stays on 127.0.0.1. `npm run bench:calls` (a
 * long run, BENCH_CALLS, default 2,000); `npm run bench` runs one for its table.
 */
export interface CallFigures {
  calls: number;
  failed: number;
  makeCallsPerS: number;
  completed: number;
  callsPerS: number;
  /** Transitions stored (calls x 4 when every call completes) and delivered to the subscriber. */
  transitions: number;
  delays: number[];
  /** Calls whose last transition (completed) reached the subscriber. */
  lastStates: number;
  statements: Statement[];
}

/**
 * Calls placed and completed before the measured ones, not counted: until V8 has compiled
 * the hot path, a short run measures the interpreter.
 */
const WARM_UP = 500;

type ClientCommand =
  { type: 'subscribe'; appUrl: string; key: string } | { type: 'place'; appUrl: string; key: string; body: string; count: number; concurrency: number } | { type: 'report'; transitions: number };

/**
 * The clients, in a child process: the graphql-ws subscriber of the `bench` workspace's
 * calls (each delivery's delay after the transition's `updatedAt`) and the HTTP client that
 * places calls.
 */
function clientProcess(): void {
  const delays: number[] = [];
  const ended = new Set<string>();
  let ws: Client | undefined;
  const handle = async (command: ClientCommand): Promise<object> => {
    if (command.type === 'subscribe') {
      ws = createClient({ url: `${command.appUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${command.key}` } });
      const connected = new Promise<void>((resolve) => ws!.on('connected', () => resolve()));
      ws.subscribe<{ callStatusChanged: { id: string; callStatus: string; updatedAt: string } }>(
        { query: 'subscription { callStatusChanged(workspace: "bench") { id callStatus updatedAt } }' },
        {
          next: ({ data }) => {
            if (!data) return;
            delays.push(Date.now() - Date.parse(data.callStatusChanged.updatedAt));
            if (data.callStatusChanged.callStatus === 'COMPLETED') ended.add(data.callStatusChanged.id);
          },
          error: (err) => console.error('subscription error', err),
          complete: () => undefined,
        },
      );
      await connected;
      return {};
    }
    if (command.type === 'place') {
      const headers = { authorization: `Bearer ${command.key}`, 'content-type': 'application/json' };
      let next = 0;
      let refused = 0;
      await Promise.all(
        Array.from({ length: command.concurrency }, async () => {
          while (next < command.count) {
            next += 1;
            const res = await fetch(`${command.appUrl}/v1/calls/make-call`, { method: 'POST', headers, body: command.body });
            if (!res.ok) refused += 1;
            await res.arrayBuffer();
          }
        }),
      );
      return { refused };
    }
    // Deliveries still in flight: until every transition has arrived, or none for 2 s.
    let heard = -1;
    while (delays.length < command.transitions && delays.length > heard) {
      heard = delays.length;
      await new Promise((r) => setTimeout(r, 2000));
    }
    await ws?.dispose();
    return { delays, lastStates: ended.size };
  };
  process.on('message', (command: ClientCommand) => {
    void handle(command).then((answer) => process.send!(answer, () => command.type === 'report' && process.exit(0)));
  });
  process.send!({});
}

export async function measureCalls({ calls, concurrency = 20 }: { calls: number; concurrency?: number }): Promise<CallFigures> {
  const db = await benchDatabase();
  const client = await forkChild<object>(__filename, 'client');
  // Rate limits off: thousands of make-calls a minute are far over them; this measures the call engine.
  const config = inProcessConfig(db.url, { MAX_CONCURRENT_CALLS_PER_COMPANY: String(calls) });
  const app = await startApp(config, createLogger(config.logLevel));
  const profile = await statementProfile(db.url);
  try {
    const em = app.orm.em.fork();
    const { companyId, apiKey: key } = await app.services.auth.createCompany(em, { name: 'Call benchmark' });
    const caller = { scope: { companyId, userId: null }, em };
    const agent = await app.services.agents.create(caller, { name: 'Bench agent', prompt: 'Say hello.' });
    await app.services.phoneNumbers.create(caller, { phoneNumber: '+14155552671' });
    await client.ask({ type: 'subscribe', appUrl: app.url, key });

    /** Places `count` calls in `workspace`, `concurrency` make-calls in flight; answers how many were refused. */
    const place = async (count: number, workspace: string) => {
      const body = JSON.stringify({ ai_agent_id: agent.id, call_from: '+14155552671', call_to: '+14155550123', workspace });
      return (await client.ask<{ refused: number }>({ type: 'place', appUrl: app.url, key, body, count, concurrency })).refused;
    };
    const completedCount = async (workspace: string) =>
      ((await em.execute(`select count(*)::int as n from calls where company_id = ? and workspace_id = ? and call_status = 'completed'`, [companyId, workspace]))[0]?.n ?? 0) as number;
    const settle = async (count: number, workspace: string) => {
      const deadline = Date.now() + 600_000;
      while ((await completedCount(workspace)) < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    // The warm-up's calls are in another workspace: the subscriber does not count them.
    await place(WARM_UP, 'warm-up');
    await settle(WARM_UP, 'warm-up');
    await analyzeAfterWarmUp(db.url);

    await profile.start();
    const started = Date.now();
    const failed = await place(calls, 'bench');
    const placedMs = Date.now() - started;
    await settle(calls, 'bench');
    const totalMs = Date.now() - started;
    const completed = await completedCount('bench');
    const statements = await profile.top(calls);
    const { delays, lastStates } = await client.ask<{ delays: number[]; lastStates: number }>({ type: 'report', transitions: completed * 4 });
    return {
      calls,
      failed,
      makeCallsPerS: (calls / placedMs) * 1000,
      completed,
      callsPerS: (completed / totalMs) * 1000,
      transitions: completed * 4,
      delays: delays.sort((x, y) => x - y),
      lastStates,
      statements,
    };
  } finally {
    await profile.close();
    await app.close();
    await db.drop();
  }
}

async function main(): Promise<void> {
  const f = await measureCalls({ calls: Number(process.env.BENCH_CALLS ?? 2000) });
  console.log(`calls placed:                 ${f.calls} (${f.makeCallsPerS.toFixed(0)} make-calls/s, ${f.failed} failed)`);
  console.log(`calls completed (database):   ${f.completed}`);
  console.log(`completed end to end:         ${f.callsPerS.toFixed(0)} calls/s`);
  console.log(`events delivered:             ${f.delays.length} of ${f.transitions} transitions; the last state of ${f.lastStates} of ${f.completed} calls`);
  console.log(`transition -> subscriber:     p50 ${percentile(f.delays, 50)} ms, p99 ${percentile(f.delays, 99)} ms, max ${f.delays.at(-1)} ms`);
  for (const line of statementLines('the calls (per call)', f.statements)) console.log(line);
}

if (process.argv[2] === 'client') {
  clientProcess();
} else if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
