import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp } from '../src/app';
import { createLogger } from '../src/logger';
import { OpenAiCompatibleModel } from '../src/services/conversation/language-model';
import type { ScenarioCreateInput } from '../src/services/agent-tests/scenario.input';
import { forkChild } from './child';
import { benchDatabase, inProcessConfig } from './database';

/**
 * How many test scenarios one replica runs a minute (docs/agents.md, "Test suites") against a
 * model that answers at once: BENCH_SCENARIOS scripted scenarios (default 200; three caller
 * turns, five deterministic criteria) in one run, AGENT_TEST_CONCURRENCY (default 4) at once.
 * The fake OpenAI-compatible model runs in a child process, so its CPU is not the service's.
 *
 * The anchor, measured in the same run: the same model requests a scenario makes, sent straight
 * through the service's own model client (the openai SDK) from this process, as many at once as
 * the run has calls in flight: the scenarios a minute the model's round trips alone would allow.
 * The figure over the anchor is the share the engine, grading and storage leave.
 * `npm run bench:scenarios`.
 */

const SCENARIOS = Number(process.env.BENCH_SCENARIOS ?? 200);
const CONCURRENCY = Number(process.env.AGENT_TEST_CONCURRENCY ?? 4);
const WARM_UP = 20;

/** A Chat Completions stream answered at once: three words, then stop. */
function fakeModel(): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  return async (req, res) => {
    let raw = '';
    for await (const part of req) raw += String(part);
    const body = JSON.parse(raw) as { model: string };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: '' }));
    for (const word of ['Thank ', 'you, ', 'noted.']) res.write(chunk({ content: word }));
    res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
  };
}

async function modelProcess(): Promise<void> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    void fakeModel()(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', () => process.send!({ requests }));
  // The benchmark is over (its process exited): so is the model.
  process.on('disconnect', () => process.exit(0));
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
}

const scenario = (i: number): ScenarioCreateInput => ({
  name: `Scenario ${i}`,
  callerTurns: [{ say: 'Hello, who is this?' }, { say: 'I would like to renew.' }, { dtmf: '1' }],
  criteria: [
    { type: 'ended_by', value: 'caller' },
    { type: 'transcript_contains', text: 'noted' },
    { type: 'transcript_not_contains', text: 'refund' },
    { type: 'max_turns', value: 10 },
    { type: 'max_latency_ms', value: 5000 },
  ],
});

async function main(): Promise<void> {
  const model = await forkChild<{ url: string }>(__filename, 'model');
  const db = await benchDatabase();
  const config = inProcessConfig(db.url, { LLM_BASE_URL: model.ready.url, LLM_MODEL: 'bench-model', LLM_API_KEY: 'bench', AGENT_TEST_CONCURRENCY: String(CONCURRENCY) });
  const app = await startApp(config, createLogger(config.logLevel));
  try {
    const em = app.orm.em.fork();
    const { companyId } = await app.services.auth.createCompany(em, { name: 'Scenario benchmark' });
    const caller = () => ({ scope: { companyId, userId: null }, em: app.orm.em.fork() });
    const agent = await app.services.agents.create(caller(), { name: 'Bench agent', prompt: 'You renew subscriptions.', whoTalksFirst: 'agent' });
    const ids: string[] = [];
    for (let i = 0; i < WARM_UP + SCENARIOS; i++) ids.push((await app.services.scenarios.create(caller(), agent.id, scenario(i))).id);

    const runScenarios = async (scenarioIds: string[]) => {
      const started = Date.now();
      const run = await app.services.testRuns.start(caller(), agent.id, { scenarioIds });
      for (;;) {
        const now = await app.services.testRuns.get(caller(), run.id);
        if (now.status === 'passed' || now.status === 'failed') return { ms: Date.now() - started, run: now };
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // Warm-up: V8 compiles the hot path, the queue and the pools open.
    await runScenarios(ids.slice(0, WARM_UP));
    const before = (await model.ask<{ requests: number }>({})).requests;
    const { ms, run } = await runScenarios(ids.slice(WARM_UP));
    const requests = (await model.ask<{ requests: number }>({})).requests - before;
    const passed = run.scenarios.filter((s) => s.passed).length;
    const perScenario = requests / SCENARIOS;

    // The anchor: the same requests through the model client alone, CONCURRENCY at once.
    const client = new OpenAiCompatibleModel(config.llm!, createLogger('silent'));
    const messages = [
      { role: 'system' as const, content: 'You renew subscriptions.' },
      { role: 'user' as const, content: 'Hello, who is this?' },
    ];
    let sent = 0;
    const anchorStarted = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < requests) {
          sent++;
          await client.stream({ messages }, () => undefined);
        }
      }),
    );
    const anchorMs = Date.now() - anchorStarted;

    const perMinute = (SCENARIOS / ms) * 60_000;
    const anchorPerMinute = (SCENARIOS / anchorMs) * 60_000;
    console.log(`scenarios run:               ${SCENARIOS} (${passed} passed), ${CONCURRENCY} at once, ${perScenario.toFixed(1)} model requests each`);
    console.log(`scenarios a minute:          ${perMinute.toFixed(0)} (${(ms / SCENARIOS).toFixed(1)} ms each, end to end: run asked for -> last result stored)`);
    console.log(
      `anchor, model requests only: ${anchorPerMinute.toFixed(0)} scenarios a minute (${requests} requests through the model client, ${CONCURRENCY} at once, ${((requests / anchorMs) * 1000).toFixed(0)} requests/s)`,
    );
    console.log(`figure / anchor:             ${((perMinute / anchorPerMinute) * 100).toFixed(0)}%`);
  } finally {
    await app.close();
    await db.drop();
    process.exit(0);
  }
}

if (process.argv[2] === 'model') {
  void modelProcess();
} else if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
