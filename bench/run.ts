/**
 * `npm run bench`: the service's figures, each beside an anchor measured in the same run.
 * Starts the compiled service as a process of its own (so that its RSS and CPU can be read
 * and it shares no event loop with the load) on a fresh database (embedded PostgreSQL of
 * its own, or a throw-away database on DATABASE_URL's server), seeds a company with 100
 * campaigns, an agent and a number, then measures (method: docs/performance.md):
 * by-id and list reads against a bare node:http + pg server, the GraphQL list against the
 * REST list, make-call against a bare INSERT … RETURNING server, and event delivery to 1,000
 * graphql-transport-ws subscribers; then runs of the engine benchmarks (calls end to end, the
 * campaign dialer, flows) at the sizes the aims were set on, each in this process on a database of its own. Prints the table
 * and writes it into docs/performance.md, with a PostgreSQL statement profile of each
 * benchmark on stderr.
 *
 *   npm run bench                     BENCH_CPU_PROF=1 npm run bench   (CPU profiles, summarised)
 *   BENCH_PHASES=reads npm run bench  (a comma list of reads, make-call, subscribers, calls, dialer, flows;
 *                                      a partial run prints its rows and leaves docs/performance.md alone)
 *   BENCH_DURATION=5 BENCH_SUBSCRIBERS=1000 BENCH_EVENT_CALLS=16 (calls per second while subscribed)
 *   BENCH_CALLS=2000 BENCH_CONTACTS=2000 BENCH_EXECUTIONS=5000 (sizes of the engine runs)
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { analyzeAfterWarmUp, benchDatabase } from './database';
import { freePort } from '../test/support/net';
import { serviceEnv } from './service-env';
import { SERVICE_NODE_FLAGS } from '../src/project';
import { type Measured, startProcess } from './processes';
import { type Row, text, writeResults } from './report';
import { callsRow, dialerRow, type Figures, fixed, flowsRow, makeCallRow, readRows, rssRow, subscribersRow } from './rows';
import { subscribe } from './subscribers';
import { countEvents, drain, quiet } from './waits';
import { measureCalls } from './calls';
import { measureCampaign } from './campaigns';
import { measureFlows } from './flows';
import { logNewestProfile } from './cpu-profile';
import { profilePhase } from './profiler';
import { type Statement, statementLines, statementProfile } from './statements';

const CONNECTIONS = 10;
const CAMPAIGNS = 100;
const WARMUP_S = 2;
const ROUNDS = 2;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
/** Each call makes 4 transitions: 16 calls/s are the 64 events/s of the aim. */
const EVENT_CALLS_PER_S = Number(process.env.BENCH_EVENT_CALLS ?? 16);
/**
 * The engines' runs, as long as the runs the aims were set on (issue 15: `bench:calls`' 2,000
 * calls, about 8,000 transitions; `bench:flows`' 5,000 executions): shorter ones measure their
 * ramp and tail more than the engine (500 calls: 220 calls/s where 2,000 do 269-309).
 */
const ENGINE_CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const ENGINE_CONTACTS = Number(process.env.BENCH_CONTACTS ?? 2000);
const ENGINE_EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 5000);
const EVENT_SECONDS = 10;
/** The phases of a run, in the order they run; `BENCH_PHASES` (a comma list) selects some, all by default. */
const PHASES = ['reads', 'make-call', 'subscribers', 'calls', 'dialer', 'flows'] as const;
type Phase = (typeof PHASES)[number];
const ROOT = path.resolve(__dirname, '../..');
const PROFILE_DIR = path.join(ROOT, '.data/bench-profiles');

const CAMPAIGN_FIELDS = `id name notes status campaignType callProgress daysOfWeek timeZone createdAt updatedAt workspaceId
  contactsListSource contactsListTags contactsListCategories contactsListSourceMetadata agentVariablesContactMetadataMapping
  callTimeOfDayFrom callTimeOfDayTo numberOfCallAttempts retryDelay retryDelayUnit deletedAt startedAt endedAt
  webhookMappingVariables webhookMappingVariablesSources ownerUserId aiAgentId inboundPhoneNumberId outboundPhoneNumberId
  webhookId allowNonLocalCalls maxConcurrentCalls`;
const GRAPHQL_LIST = JSON.stringify({ query: `{ campaigns(first: ${CAMPAIGNS}) { edges { node { ${CAMPAIGN_FIELDS} } } } }` });

const log = (line: string) => process.stderr.write(`${line}\n`);

interface Target {
  name: string;
  process: Measured;
  options: autocannon.Options;
}

async function load(target: Target, seconds: number): Promise<Figures> {
  const cpu = await target.process.cpuMs();
  const r = await autocannon({ ...target.options, connections: CONNECTIONS, duration: seconds });
  const total = r.requests.total;
  return {
    reqPerS: total / (r.duration || seconds),
    meanMs: r.latency.average,
    p99Ms: r.latency.p99,
    cpuMsPerReq: ((await target.process.cpuMs()) - cpu) / Math.max(1, total),
    requests: total,
    failed: r.non2xx + r.errors + r.timeouts,
  };
}

/** Warms every target up, then measures them in alternation for ROUNDS rounds (drift hits all). */
async function compare(targets: Target[]): Promise<Map<string, Figures>> {
  for (const target of targets) await load(target, WARMUP_S);
  const rounds = new Map<string, Figures[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const f = await load(target, DURATION_S);
      log(
        `  ${round}. ${target.name.padEnd(34)} ${fixed(f.reqPerS).padStart(6)} req/s  mean ${f.meanMs.toFixed(1)} ms  p99 ${f.p99Ms} ms  cpu ${f.cpuMsPerReq.toFixed(2)} ms/req${f.failed ? `  ${f.failed} FAILED` : ''}`,
      );
      rounds.get(target.name)!.push(f);
    }
  }
  const mean = (fs: Figures[], k: keyof Figures) => fs.reduce((s, f) => s + f[k], 0) / fs.length;
  const sum = (fs: Figures[], k: keyof Figures) => fs.reduce((s, f) => s + f[k], 0);
  return new Map(
    [...rounds].map(([name, fs]) => [
      name,
      {
        reqPerS: mean(fs, 'reqPerS'),
        meanMs: mean(fs, 'meanMs'),
        p99Ms: Math.max(...fs.map((f) => f.p99Ms)),
        cpuMsPerReq: mean(fs, 'cpuMsPerReq'),
        requests: sum(fs, 'requests'),
        failed: sum(fs, 'failed'),
      },
    ]),
  );
}

async function json(url: string, init: RequestInit & { key?: string } = {}): Promise<any> {
  const headers = { 'content-type': 'application/json', ...(init.key ? { authorization: `Bearer ${init.key}` } : {}) };
  const res = await fetch(url, { ...init, headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A company with an agent, a number and CAMPAIGNS campaigns: through the admin CLI and the REST API. */
async function seed(service: Measured, databaseUrl: string) {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/src/cli/admin.js'), 'create-company', '--name', 'Benchmark'], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
  });
  const { company_id: companyId, api_key: key } = JSON.parse(stdout) as { company_id: string; api_key: string };
  const agent = (await json(`${service.url}/v1/ai-agent`, { method: 'POST', key, body: JSON.stringify({ name: 'Bench agent', prompt: 'Say hello.' }) })).data;
  await json(`${service.url}/v1/phone-numbers`, { method: 'POST', key, body: JSON.stringify({ phone_number: '+14155552671' }) });
  const campaign = { ai_agent_id: agent.id, number_of_call_attempts: [2], retry_delay: [30], retry_delay_unit: ['minutes'] };
  for (let i = 0; i < CAMPAIGNS; i++) {
    await json(`${service.url}/v1/campaigns`, { method: 'POST', key, body: JSON.stringify({ ...campaign, name: `Campaign ${i}` }) });
  }
  const makeCall = JSON.stringify({ ai_agent_id: agent.id, call_from: '+14155552671', call_to: '+14155550123' });
  return { companyId, key, makeCall };
}

/** The phases `BENCH_PHASES` names (all when unset); an unknown name fails the run before anything starts. */
function selectedPhases(): Set<Phase> {
  const names = (process.env.BENCH_PHASES ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(PHASES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`BENCH_PHASES: unknown ${unknown.join(', ')} (phases: ${PHASES.join(', ')})`);
  return new Set(names.length > 0 ? (names as Phase[]) : PHASES);
}

type Profiles = [string, Statement[]][];

/** The phases against the service process (reads, make-call, subscribers) that `phases` selects, and its peak RSS. */
async function servicePhases(
  db: { url: string; kind: string },
  phases: Set<Phase>,
  profiles: Profiles,
): Promise<{ rows: Partial<Record<Phase, Row[]>>; rss: Row; failed: boolean; bareInsert?: Figures }> {
  const processes: Measured[] = [];
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  const rows: Partial<Record<Phase, Row[]>> = {};
  let failed = false;
  let bareInsert: Figures | undefined;
  try {
    const nodeArgs = process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
    const servicePort = await freePort();
    const service = await startProcess(path.join(ROOT, 'dist/src/main.js'), servicePort, serviceEnv(db.url, servicePort), [...SERVICE_NODE_FLAGS, ...nodeArgs]);
    processes.push(service);
    log(`service: pid ${service.pid} on ${service.url}, ${db.kind}`);
    const { companyId, key, makeCall } = await seed(service, db.url);
    const baselinePort = await freePort();
    const baseline = await startProcess(path.join(ROOT, 'dist/bench/baseline.js'), baselinePort, {
      DATABASE_URL: db.url,
      PORT: String(baselinePort),
      COMPANY_ID: companyId,
      // As many connections as the service's ORM pool has by default.
      POOL_MAX: String(loadConfig({}).pools.orm),
    });
    processes.push(baseline);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const statements = await statementProfile(db.url);
    const profiled = async <T>(label: string, units: (result: T) => number, phase: () => Promise<T>): Promise<T> => {
      await statements.start();
      const result = await phase();
      profiles.push([label, await statements.top(units(result))]);
      return result;
    };

    if (phases.has('reads')) {
      const reads = await measureReads(service, baseline, key, headers);
      rows.reads = readRows(reads.figures, CAMPAIGNS);
      failed ||= [...reads.figures.values()].some((f) => f.failed > 0);
      // The reads above alternate with the bare server on the same database: one more run alone, for its statements.
      await profiled(
        'GET by-id (per request)',
        (f) => f.requests,
        () => load({ name: 'by-id', process: service, options: { url: `${service.url}${reads.byId}`, headers } }, WARMUP_S),
      );
    }

    if (phases.has('make-call')) {
      log(`make-call: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, then ${DURATION_S} s; the same for the bare insert`);
      const makeCallOptions = { method: 'POST' as const, headers, body: makeCall };
      const makeCalls: Target = { name: 'make-call', process: service, options: { url: `${service.url}/v1/calls/make-call`, ...makeCallOptions } };
      const inserts: Target = { name: 'bare insert', process: baseline, options: { url: `${baseline.url}/v1/calls/make-call`, ...makeCallOptions } };
      await load(makeCalls, WARMUP_S);
      const warm = await drain(sql, companyId, 120_000);
      await analyzeAfterWarmUp(db.url);
      const calls = await profiled(
        'POST make-call and the calls it places (per request)',
        (f) => f.requests,
        () => load(makeCalls, DURATION_S),
      );
      const ended = await drain(sql, companyId, 120_000);
      const drained = { calls: ended.calls - warm.calls, seconds: ended.seconds };
      await load(inserts, WARMUP_S);
      bareInsert = await load(inserts, DURATION_S);
      log(`  make-call ${fixed(calls.reqPerS)} req/s, bare insert ${fixed(bareInsert.reqPerS)} req/s`);
      rows['make-call'] = [makeCallRow(calls, bareInsert, drained)];
      failed ||= calls.failed > 0 || bareInsert.failed > 0;
    }

    if (phases.has('subscribers')) {
      await analyzeAfterWarmUp(db.url);
      await statements.start();
      const delivered = await measureSubscribers(service, db.url, sql, companyId, key, makeCall);
      profiles.push(['transitions to 1,000 subscribers (per event)', await statements.top(delivered.events)]);
      rows.subscribers = [subscribersRow(delivered, SUBSCRIBERS, EVENT_CALLS_PER_S, EVENT_SECONDS)];
    }
    await statements.close();
    const rss = rssRow({ service: await service.peakRssMiB(), baseline: await baseline.peakRssMiB() });
    for (const p of processes.splice(0).reverse()) await p.stop();
    if (nodeArgs.length) logNewestProfile(PROFILE_DIR, log);
    return { rows, rss, failed, bareInsert };
  } catch (err) {
    for (const p of processes) log(`stderr of pid ${p.pid}:\n${p.errors()}`);
    throw err;
  } finally {
    await sql.end();
    for (const p of processes.reverse()) await p.stop();
  }
}

/** by-id, the REST list and the GraphQL list against the bare server, after checking that all answer the same campaigns. */
async function measureReads(service: Measured, baseline: Measured, key: string, headers: Record<string, string>): Promise<{ figures: Map<string, Figures>; byId: string }> {
  const list = (await json(`${service.url}/v1/campaigns/list`, { key })).data as { id: string }[];
  const bareList = (await json(`${baseline.url}/v1/campaigns/list`)).data as { id: string }[];
  const gqlList = (await json(`${service.url}/graphql`, { method: 'POST', key, body: GRAPHQL_LIST })).data.campaigns.edges as { node: { id: string } }[];
  const ids = list.map((c) => c.id).join();
  if (list.length !== CAMPAIGNS || bareList.map((c) => c.id).join() !== ids || gqlList.map((e) => e.node.id).join() !== ids) {
    throw new Error('the service, its GraphQL API and the baseline answer different campaigns');
  }
  const byId = `/v1/campaigns/by-id/${list[0].id}`;
  log(`reads: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up each, then ${ROUNDS} alternating rounds of ${DURATION_S} s`);
  const figures = await compare([
    { name: 'service by-id', process: service, options: { url: `${service.url}${byId}`, headers } },
    { name: 'bare by-id', process: baseline, options: { url: `${baseline.url}${byId}` } },
    { name: 'service REST list', process: service, options: { url: `${service.url}/v1/campaigns/list`, headers } },
    { name: 'bare list', process: baseline, options: { url: `${baseline.url}/v1/campaigns/list` } },
    { name: 'service GraphQL list', process: service, options: { url: `${service.url}/graphql`, method: 'POST', headers, body: GRAPHQL_LIST } },
  ]);
  return { figures, byId };
}

/** SUBSCRIBERS graphql-transport-ws clients, then EVENT_CALLS_PER_S calls per second for EVENT_SECONDS: each delivery's delay. */
async function measureSubscribers(service: Measured, databaseUrl: string, sql: pg.Pool, companyId: string, key: string, makeCall: string) {
  log(`subscribers: connecting ${SUBSCRIBERS}`);
  const subscribers = await subscribe(service.url, key, SUBSCRIBERS);
  const probe = (await json(`${service.url}/v1/calls/make-call`, { method: 'POST', key, body: makeCall })).data as { id: string };
  await subscribers.allReceived((c) => c.id === probe.id, 60_000);
  log('subscribers: every one received the first call');
  await drain(sql, companyId, 60_000);
  await quiet(() => subscribers.received(), Infinity);
  log(`subscribers: ${EVENT_CALLS_PER_S} calls/s for ${EVENT_SECONDS} s`);
  const published = await countEvents(databaseUrl);
  subscribers.record();
  const cpuBefore = await service.cpuMs();
  const placed = Date.now();
  for (let i = 0; i < EVENT_CALLS_PER_S * EVENT_SECONDS; i++) {
    await new Promise((resolve) => setTimeout(resolve, placed + (i * 1000) / EVENT_CALLS_PER_S - Date.now()));
    await json(`${service.url}/v1/calls/make-call`, { method: 'POST', key, body: makeCall });
  }
  await drain(sql, companyId, 60_000);
  const events = await published.stop();
  await quiet(() => subscribers.results().delays.length, events * SUBSCRIBERS);
  const delivered = { ...subscribers.results(), events, cpuMs: (await service.cpuMs()) - cpuBefore };
  await subscribers.close();
  return delivered;
}

/**
 * The engine benchmarks `phases` selects, one after the other, each in this process on a
 * database of its own; `bareInsert`, the make-call phase's bare insert, when it ran: the
 * calls' anchor on this machine.
 */
async function enginePhases(phases: Set<Phase>, profiles: Profiles, bareInsert: Figures | undefined): Promise<Partial<Record<Phase, Row[]>>> {
  const rows: Partial<Record<Phase, Row[]>> = {};
  if (phases.has('calls')) {
    log(`calls end to end: ${ENGINE_CALLS} calls`);
    const calls = await profilePhase(PROFILE_DIR, 'calls', () => measureCalls({ calls: ENGINE_CALLS }), log);
    profiles.push(['calls end to end (per call)', calls.statements]);
    rows.calls = [callsRow(calls, bareInsert)];
  }
  if (phases.has('dialer')) {
    log(`campaign dialer: ${ENGINE_CONTACTS} contacts`);
    const campaign = await profilePhase(PROFILE_DIR, 'campaign', () => measureCampaign({ contacts: ENGINE_CONTACTS, concurrency: 200 }), log);
    profiles.push(['campaign dialer (per contact)', campaign.statements]);
    rows.dialer = [dialerRow(campaign)];
  }
  if (phases.has('flows')) {
    log(`flows: ${ENGINE_EXECUTIONS} executions`);
    const flows = await profilePhase(PROFILE_DIR, 'flows', () => measureFlows({ executions: ENGINE_EXECUTIONS, concurrency: 16 }), log);
    profiles.push(['flows (per execution)', flows.statements]);
    rows.flows = [flowsRow(flows)];
  }
  return rows;
}

/** The order of the table: reads, make-call, the engines, then subscribers and memory. */
const TABLE_ORDER: Phase[] = ['reads', 'make-call', 'calls', 'dialer', 'flows', 'subscribers'];

async function main(): Promise<void> {
  const phases = selectedPhases();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const loadBefore = os.loadavg();
  const db = await benchDatabase();
  try {
    const profiles: Profiles = [];
    const onService = ['reads', 'make-call', 'subscribers'].some((p) => phases.has(p as Phase));
    const service = onService ? await servicePhases(db, phases, profiles) : undefined;
    const engines = await enginePhases(phases, profiles, service?.bareInsert);
    for (const [label, top] of profiles) for (const line of statementLines(label, top)) log(line);
    const loadAfter = os.loadavg();

    const byPhase = { ...service?.rows, ...engines };
    const rows = [...TABLE_ORDER.flatMap((p) => byPhase[p] ?? []), ...(service ? [service.rss] : [])];
    const version = await serverVersion(db.url);
    const run = {
      date,
      machine: `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      load: `${loadBefore.map((l) => l.toFixed(2)).join(', ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(', ')} after`,
      database: `PostgreSQL ${version} (${db.kind})`,
      rows,
      notes: [] as string[],
    };
    if (service?.failed) {
      run.notes.push(
        'Some requests failed (non-2xx, errors or timeouts; a 429 means a rate limit: set the RATE_LIMIT_* variables high in the environment of npm run bench, they are passed to the service).',
      );
    }
    process.stdout.write(`\n${text(run)}\n`);
    // Only a run of every phase replaces the table: a partial one would drop the other rows.
    if (phases.size === PHASES.length) {
      await writeResults(path.join(ROOT, 'docs/performance.md'), run);
      process.stdout.write('\nWritten into docs/performance.md.\n');
    } else {
      process.stdout.write(`\nPhases ${[...phases].join(', ')} only (BENCH_PHASES): docs/performance.md left as it was.\n`);
    }
    if (process.env.BENCH_CPU_PROF === '1') process.stdout.write(`CPU profiles: ${PROFILE_DIR}\n`);
  } finally {
    await db.drop();
  }
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('show server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`Benchmark failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
