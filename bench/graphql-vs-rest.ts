import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { startApp } from '../src/app';
import { loadConfig } from '../src/config';
import { BENCH_DATABASE } from './database';
import { Company } from '../src/entities';
import { createLogger } from '../src/logger';

/**
 * GET /v1/campaigns/list against the GraphQL query returning the same 100 campaigns with
 * the same fields, in one run on the same data. The service runs in this process; the
 * load comes from an autocannon worker thread, over 127.0.0.1 only. Both are warmed up,
 * then measured in alternation. Two costs per request are compared: the mean latency seen
 * by the client, and the server's own busy time (event-loop active time of the main
 * thread, where the service runs, divided by the requests served), which other processes
 * on the machine disturb less.
 * `npm run bench:graphql` (DATABASE_URL optional: the embedded PostgreSQL otherwise).
 */
const CAMPAIGNS = 100;
const CONNECTIONS = 10;
const WARMUP_S = 3;
/** Seconds per measurement; the two targets alternate for ROUNDS rounds, so drift hits both. */
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = 3;

const CAMPAIGN_FIELDS = `id name notes status campaignType callProgress daysOfWeek timeZone createdAt updatedAt workspace
  contactsListSource contactsListTags contactsListCategories contactsListSourceMetadata agentVariablesContactMetadataMapping
  callTimeOfDayFrom callTimeOfDayTo numberOfCallAttempts retryDelay retryDelayUnit deletedAt startedAt endedAt
  webhookMappingVariables webhookMappingVariablesSources ownerUserId aiAgentId inboundPhoneNumberId outboundPhoneNumberId
  webhookId allowNonLocalCalls maxConcurrentCalls`;
const GRAPHQL_QUERY = `{ campaigns(first: ${CAMPAIGNS}) { edges { node { ${CAMPAIGN_FIELDS} } } } }`;

interface Target {
  name: string;
  options: autocannon.Options;
}

interface Measured {
  result: autocannon.Result;
  /** Main-thread busy milliseconds per request. */
  busyMs: number;
}

async function measure({ options }: Target, seconds: number): Promise<Measured> {
  const before = performance.eventLoopUtilization();
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: seconds, workers: 1 });
  const { active } = performance.eventLoopUtilization(before);
  return { result, busyMs: active / Math.max(1, result.requests.total) };
}

function row(name: string, { result: r, busyMs }: Measured): string {
  const failed = r.non2xx + r.errors + r.timeouts;
  return [
    name.padEnd(32),
    `busy ${busyMs.toFixed(2).padStart(5)} ms/req`,
    `${r.requests.average.toFixed(0).padStart(7)} req/s`,
    `mean ${r.latency.average.toFixed(2).padStart(7)} ms`,
    `p50 ${String(r.latency.p50).padStart(4)} ms`,
    `p99 ${String(r.latency.p99).padStart(4)} ms`,
    `${(r.throughput.average / 1024 / 1024).toFixed(1).padStart(5)} MiB/s`,
    `${r.requests.total} requests${failed ? `, ${failed} FAILED` : ''}`,
  ].join('  ');
}

async function main(): Promise<void> {
  // Limits off: thousands of requests a minute from one key are far over them.
  const config = loadConfig({ ...BENCH_DATABASE, RATE_LIMIT_ENABLED: '0', ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', SEED_DEMO: '0', LOG_LEVEL: 'silent' });
  const app = await startApp(config, createLogger(config.logLevel));
  const em = app.orm.em.fork();
  const { companyId, apiKey } = await app.services.auth.createCompany(em, { name: 'Benchmark' });
  try {
    const caller = { scope: { companyId, userId: null }, em };
    const agent = await app.services.agents.create(caller, { name: 'Bench agent' });
    for (let i = 0; i < CAMPAIGNS; i++) {
      await app.services.campaigns.create(caller, { name: `Campaign ${i}`, ai_agent_id: agent.id, number_of_call_attempts: [2], retry_delay: [30], retry_delay_unit: ['minutes'] });
    }
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const targets: Target[] = [
      { name: 'REST GET /v1/campaigns/list', options: { url: `${app.url}/v1/campaigns/list`, headers } },
      { name: 'GraphQL campaigns(first: 100)', options: { url: `${app.url}/graphql`, method: 'POST', headers, body: JSON.stringify({ query: GRAPHQL_QUERY }) } },
    ];
    await checkSameCampaigns(app.url, headers);
    process.stdout.write(`${CAMPAIGNS} campaigns, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each after ${WARMUP_S} s of warm-up\n`);
    for (const target of targets) await measure(target, WARMUP_S);
    const latency = targets.map(() => 0);
    const busy = targets.map(() => 0);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, target] of targets.entries()) {
        const measured = await measure(target, DURATION_S);
        latency[i]! += measured.result.latency.average / ROUNDS;
        busy[i]! += measured.busyMs / ROUNDS;
        process.stdout.write(`${row(`${round}. ${target.name}`, measured)}\n`);
      }
    }
    const ratio = (values: number[]) => `${(values[1]! / values[0]!).toFixed(2)}x`;
    process.stdout.write(`Mean latency:    REST ${latency[0]!.toFixed(2)} ms, GraphQL ${latency[1]!.toFixed(2)} ms: GraphQL/REST ${ratio(latency)}\n`);
    process.stdout.write(`Server busy/req: REST ${busy[0]!.toFixed(2)} ms, GraphQL ${busy[1]!.toFixed(2)} ms: GraphQL/REST ${ratio(busy)}\n`);
    process.stdout.write('Target: GraphQL at most 1.50x the REST time per request.\n');
  } finally {
    await em.fork().nativeDelete(Company, { id: companyId });
    await app.close();
  }
}

/** Both answers hold the same campaigns, before anything is measured. */
async function checkSameCampaigns(url: string, headers: Record<string, string>): Promise<void> {
  const rest = (await (await fetch(`${url}/v1/campaigns/list`, { headers })).json()) as { data: { id: string }[] };
  const gql = (await (await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: GRAPHQL_QUERY }) })).json()) as {
    data: { campaigns: { edges: { node: { id: string } }[] } };
  };
  const restIds = rest.data.map((c) => c.id).join();
  const gqlIds = gql.data.campaigns.edges.map((e) => e.node.id).join();
  if (rest.data.length !== CAMPAIGNS || restIds !== gqlIds) throw new Error('REST and GraphQL answer different campaigns');
}

main().catch((err: unknown) => {
  process.stderr.write(`Benchmark failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
