/**
 * `npm run bench:volume`: the reads of a company with months of history (issue 31). Seeds,
 * on a database of its own (DATABASE_URL's server, else an embedded PostgreSQL), one company
 * with 1,000,000 contacts and 5,000,000 calls over 90 days, a second with a tenth of that and
 * an empty one (bench/volume-seed.ts: SQL on the server, not the API), then starts the
 * service as a process of its own and measures each read at 10 connections on the large
 * company beside the same read on the empty one and beside its aim; then the legacy contact
 * listing of every contact (time and the service's RSS growth), requests while listings run,
 * and the activation of a campaign selecting every contact. Prints the table, writes it and
 * each read's plan (`EXPLAIN (ANALYZE, BUFFERS)`) into docs/performance.md.
 *
 *   npm run bench:volume                       # full scale: 20-25 minutes on a busy 2-core machine, most of it the seed
 *   VOLUME_SCALE=0.1 npm run bench:volume      # a tenth of every count (prints, leaves the docs alone)
 *   BENCH_DURATION=5                           # seconds measured per read
 *   VOLUME_READS='GraphQL calls'               # only the reads whose names contain it (no listing, no activation; leaves the docs alone)
 *   VOLUME_ACTIVATION=only                     # only the activation, after the seed (no rollups, reads or listing; leaves the docs alone)
 *   BENCH_CPU_PROF=1                           # a CPU profile of the service over the run, summarised
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import autocannon from 'autocannon';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import pg from 'pg';
import type { AnalyticsGroup } from '../src/services/analytics/analytics.input';
import { analyticsFigures } from '../src/services/analytics/analytics.store';
import type { Campaign } from '../src/entities';
import { audienceCounts, audienceSample } from '../src/services/campaigns/campaign.store';
import { encodeCursor } from '../src/services/shared/pagination';
import { loadConfig } from '../src/config';
import { logNewestProfile } from './cpu-profile';
import { benchDatabase } from './database';
import { freePort } from '../test/support/net';
import { type Measured, startProcess } from './processes';
import { type Row, text, writeBlock, writeResults } from './report';
import { DIALER_AIM_PER_S, fixed, signed } from './rows';
import { serviceEnv } from './service-env';
import { SERVICE_NODE_FLAGS } from '../src/project';
import { statementProfile, type Statement } from './statements';
import { bulkLoad, type History, seedCalls, seedContacts, TAGS } from './volume-seed';

const SCALE = Number(process.env.VOLUME_SCALE ?? 1);
const LARGE = { contacts: Math.round(1_000_000 * SCALE), calls: Math.round(5_000_000 * SCALE) };
const SMALL = { contacts: Math.round(LARGE.contacts / 10), calls: Math.round(LARGE.calls / 10) };
const DAYS = 90;
const CAMPAIGNS = 20;
const AGENTS = 3;
const CONNECTIONS = 10;
const WARMUP_S = 1;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
/** Only the reads whose names contain it, when set: the listing, the requests beside it and the activation are left out. */
const ONLY_READS = process.env.VOLUME_READS;
/** Only the activation, when `only`: the reads, the listing and the requests beside it are left out. */
const ONLY_ACTIVATION = process.env.VOLUME_ACTIVATION === 'only';
/** A full run writes its table and its reads' plans into docs/performance.md; the others print them. */
const WRITES_DOCS = SCALE === 1 && ONLY_READS === undefined && !ONLY_ACTIVATION;
const PROFILE_DIR = path.resolve(__dirname, '../../.data/bench-profiles');
const READ_AIM_MS = 50;
const COUNT_AIM_MS = 500;
const ANALYTICS_AIM_MS = 1000;
const SELECTION_AIM_S = 10;
const RSS_AIM_MIB = 50;
const ROOT = path.resolve(__dirname, '../..');
const DOC = path.join(ROOT, 'docs/performance.md');
const RESULTS = { start: '<!-- bench:volume:start (written by npm run bench:volume) -->', end: '<!-- bench:volume:end -->' };
const PLANS = { start: '<!-- bench:volume-plans:start (written by npm run bench:volume) -->', end: '<!-- bench:volume-plans:end -->' };

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A company of the run: its API key and the ids its reads name. */
interface Tenant {
  companyId: string;
  key: string;
  agentIds: string[];
  campaignIds: string[];
  numberId: string;
  /** The company's calling number (E.164): each company holds its own. */
  number: string;
}

async function json(url: string, key: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { status?: string; data?: unknown };
  if (!res.ok || body.status !== 'ok') throw new Error(`${init.method ?? 'GET'} ${url}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** A company (admin CLI) with its agents, a number and its campaigns (REST), as a user makes them. */
async function tenant(service: Measured, databaseUrl: string, name: string, campaigns: number, number: string): Promise<Tenant> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/src/cli/admin.js'), 'create-company', '--name', name], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
  });
  const { company_id: companyId, api_key: key } = JSON.parse(stdout) as { company_id: string; api_key: string };
  const post = (route: string, body: unknown) => json(`${service.url}${route}`, key, { method: 'POST', body: JSON.stringify(body) });
  const agentIds: string[] = [];
  for (let i = 0; i < AGENTS; i++) agentIds.push((await post('/v1/ai-agent', { name: `Agent ${i}`, prompt: 'You remind customers of their renewal.' })).id);
  const numberId = (await post('/v1/phone-numbers', { phone_number: number })).id as string;
  const campaignIds: string[] = [];
  for (let i = 0; i < campaigns; i++) {
    campaignIds.push((await post('/v1/campaigns', { name: `Renewals ${i}`, ai_agent_id: agentIds[i % AGENTS], outbound_phone_number_id: numberId })).id);
  }
  return { companyId, key, agentIds, campaignIds, numberId, number };
}

/** Seeds each company's history in one bulk load; answers the seconds each part took. */
async function seed(sql: pg.Pool, companies: [Tenant, { contacts: number; calls: number }, string][]): Promise<{ contactsS: number; callsS: number; indexesS: number }> {
  const client = await sql.connect();
  const took = { contactsS: 0, callsS: 0, indexesS: 0 };
  const timed = async (part: keyof typeof took, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    took[part] += (performance.now() - started) / 1000;
  };
  try {
    const now = new Date();
    let loaded = 0;
    await timed('indexesS', () =>
      bulkLoad(client, ['contacts', 'calls'], async () => {
        const started = performance.now();
        for (const [t, size, phonePrefix] of companies) {
          const history: History = { companyId: t.companyId, ...size, days: DAYS, agentIds: t.agentIds, campaignIds: t.campaignIds, callFrom: t.number, phonePrefix, now };
          await timed('contactsS', () => seedContacts(client, history));
          await timed('callsS', () => seedCalls(client, history));
          log(`  ${fixed(size.contacts)} contacts and ${fixed(size.calls)} calls`);
        }
        loaded = (performance.now() - started) / 1000;
      }),
    );
    took.indexesS -= loaded;
    // The load ran with triggers off, the kept counts' too: they are counted now, as the migration's backfill counts a live table.
    await client.query('SELECT contact_counts_rebuild()');
    log(`  contacts ${took.contactsS.toFixed(1)} s, calls ${took.callsS.toFixed(1)} s, indexes ${took.indexesS.toFixed(1)} s`);
    return took;
  } finally {
    client.release();
  }
}

/**
 * The seed loads calls with triggers off: marks every bucket of calls dirty, as
 * Migration20261128010000_call_rollups's backfill does, and waits for the service's fold
 * (its periodic sweep, docs/analytics.md "Rollups") to have folded them all. Answers the buckets.
 */
async function foldRollups(sql: pg.Pool): Promise<number> {
  const { rowCount } = await sql.query(
    `INSERT INTO call_rollup_dirty (company_id, bucket)
     SELECT DISTINCT company_id, date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00') FROM calls WHERE deleted_at IS NULL`,
  );
  while ((await sql.query('SELECT 1 FROM call_rollup_dirty LIMIT 1')).rowCount) await new Promise((resolve) => setTimeout(resolve, 250));
  await sql.query('VACUUM (ANALYZE) call_rollups, call_rollup_days, call_rollup_dirty');
  return rowCount ?? 0;
}

interface Load {
  p99Ms: number;
  reqPerS: number;
  requests: number;
  failed: number;
  /** The service process's CPU time per request (user + system): steadier than latency on a shared machine. */
  cpuMsPerReq: number;
}

/** The service, read by every load: its CPU time is what a request costs it. */
let measured: Measured;

async function load(options: autocannon.Options, seconds: number): Promise<Load> {
  const cpu = await measured.cpuMs();
  const r = await autocannon({ ...options, connections: CONNECTIONS, duration: seconds });
  const requests = r.requests.total;
  return {
    p99Ms: r.latency.p99,
    reqPerS: requests / (r.duration || seconds),
    requests,
    failed: r.non2xx + r.errors + r.timeouts,
    cpuMsPerReq: ((await measured.cpuMs()) - cpu) / Math.max(1, requests),
  };
}

/**
 * Sends `options`' request once and throws unless it is answered 2xx without GraphQL
 * `errors`: autocannon counts only statuses, and GraphQL answers its errors with 200, so a
 * read that fails every time would otherwise be measured as a fast one.
 */
async function answersCleanly(name: string, options: autocannon.Options): Promise<void> {
  const res = await fetch(options.url, { method: options.method ?? 'GET', headers: options.headers as Record<string, string>, body: options.body as string | undefined });
  const body = await res.text();
  const errors = res.headers.get('content-type')?.includes('json') ? (JSON.parse(body) as { errors?: unknown }).errors : undefined;
  if (!res.ok || errors !== undefined) throw new Error(`${name}: answered HTTP ${res.status}: ${body.slice(0, 500)}`);
}

/** One read of the table: the request for a company, its aim, and the statement whose plan the docs show. */
interface Read {
  name: string;
  aimMs: number;
  request(t: Tenant): autocannon.Options;
  /**
   * The statement to explain (matched in the read's statement profile) and the values the
   * request gave its `$n`, in order; or, for a statement whose constants the profile numbers
   * too, the statements as its store functions send them (`recorded`).
   */
  plan: { statement: RegExp; params(t: Tenant): unknown[]; constants?: unknown[] } | { recorded(t: Tenant): Promise<Recorded[]> };
}

const get =
  (service: Measured, route: (t: Tenant) => string) =>
  (t: Tenant): autocannon.Options => ({ url: `${service.url}${route(t)}`, headers: { authorization: `Bearer ${t.key}` } });
const graphql =
  (service: Measured, query: string) =>
  (t: Tenant): autocannon.Options => ({
    url: `${service.url}/graphql`,
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });

/** A day 30 days ago: the date range of the calls read. */
const dayAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** One page of calls: the list's limit plus the row that tells whether another page follows. */
const PAGE = 51;
const CALLS = /from "calls"/i;

function reads(service: Measured): Read[] {
  const day = { after: dayAgo(31), before: dayAgo(30) };
  const week = { after: dayAgo(37), before: dayAgo(30) };
  const range = (r: { after: string; before: string }) => `created_after=${encodeURIComponent(r.after)}&created_before=${encodeURIComponent(r.before)}`;
  return [
    {
      name: 'GET /v1/calls?campaign_id= (first page, 50)',
      aimMs: READ_AIM_MS,
      request: get(service, (t) => `/v1/calls?campaign_id=${t.campaignIds[0]}`),
      plan: { statement: CALLS, params: (t) => [t.companyId, t.campaignIds[0], PAGE] },
    },
    { name: 'GET /v1/calls?status=busy', aimMs: READ_AIM_MS, request: get(service, () => '/v1/calls?status=busy'), plan: { statement: CALLS, params: (t) => [t.companyId, 'busy', PAGE] } },
    {
      name: 'GET /v1/calls, one day 30 days ago',
      aimMs: READ_AIM_MS,
      request: get(service, () => `/v1/calls?${range(day)}`),
      plan: { statement: CALLS, params: (t) => [t.companyId, day.after, day.before, PAGE] },
    },
    {
      name: 'GET /v1/calls, campaign + status + 7 days',
      aimMs: READ_AIM_MS,
      request: get(service, (t) => `/v1/calls?campaign_id=${t.campaignIds[1]}&status=completed&${range(week)}`),
      plan: { statement: CALLS, params: (t) => [t.companyId, t.campaignIds[1], 'completed', week.after, week.before, PAGE] },
    },
    {
      name: 'GraphQL calls(first: 50) { aiAgent, contact }',
      aimMs: READ_AIM_MS,
      request: graphql(
        service,
        '{ calls(first: 50) { edges { node { id callStatus callDuration createdAt aiAgent { id name } contact { id firstname lastname phoneNumber } } } pageInfo { endCursor } } }',
      ),
      plan: { statement: CALLS, params: (t) => [t.companyId, PAGE] },
    },
    {
      name: 'GraphQL contacts { totalCount }',
      aimMs: COUNT_AIM_MS,
      request: graphql(service, '{ contacts(first: 1) { totalCount } }'),
      plan: { statement: /contact_counts/, params: (t) => [t.companyId] },
    },
  ];
}

/** A statement as a store function sends it: its text with `$n` placeholders, and their values. */
interface Recorded {
  text: string;
  values: unknown[];
}

/**
 * The statements `work` sends through its EntityManager's `execute`, recorded instead of run
 * (the stub answers one empty row): the store's own text and values, where pg_stat_statements
 * keeps the text with its constants numbered (the statuses and formats the analytics and
 * audience statements name) and their values lost. Their `?` become `$n` as the driver's do.
 */
async function recorded(work: (em: EntityManager) => Promise<unknown>): Promise<Recorded[]> {
  const sent: Recorded[] = [];
  const em = {
    execute: (query: string, values: unknown[] = []) => {
      let n = 0;
      // A transaction's settings (the analytics' `SET LOCAL jit = off`) have no plan.
      if (!query.startsWith('SET ')) sent.push({ text: query.replace(/\?/g, () => `$${++n}`), values });
      return Promise.resolve([{}]);
    },
    map: () => ({}),
    transactional: <T>(work: (tx: unknown) => Promise<T>): Promise<T> => work(em),
  };
  await work(em as unknown as EntityManager);
  return sent;
}

/** Whether a profile's statement is a recorded one: the same letters at their start (the profile numbers the constants, `1` as `$5`). */
const sameStatement = (profiled: string, sent: string) => {
  const letters = (text: string) => text.replace(/[^A-Za-z_]/g, '').slice(0, 80);
  return letters(profiled) === letters(sent);
};

/** `EXPLAIN (ANALYZE, BUFFERS)` of a recorded statement with its values (a custom plan, as the service's unnamed statements get). */
async function explainRecorded(sql: pg.Pool, { text, values }: Recorded): Promise<string> {
  try {
    const { rows } = await sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } catch (err) {
    return `(could not explain: ${err instanceof Error ? err.message : String(err)})`;
  }
}

/** A page of contacts as stored views (`contactsPage`). */
const CONTACTS = /FROM "contacts" WHERE/;

/** The analytics query of a range grouped by `groupBy` (days in `timeZone`), each group's calls by outcome, as a console asks for it. */
function analyticsQuery(range: { from: Date; to: Date }, groupBy: AnalyticsGroup = 'day', timeZone = 'UTC'): string {
  const row = 'key calls answered answerRate averageDurationSeconds cost latencyMedianMs latencyP90Ms outcomes { outcome calls }';
  return `{ analytics(from: "${range.from.toISOString()}", to: "${range.to.toISOString()}", groupBy: ${groupBy.toUpperCase()}, timeZone: "${timeZone}") { total { ${row} } rows { ${row} } } }`;
}

/**
 * The analytics reads, each of the last 30 days: by day (in UTC, as issue 31 asks, and in a
 * zone whose days start at half past a UTC hour), by campaign and by agent.
 */
const ANALYTICS_READS: { name: string; groupBy: AnalyticsGroup; timeZone: string }[] = [
  { name: 'GraphQL analytics, 30 days by day and outcome', groupBy: 'day', timeZone: 'UTC' },
  { name: 'GraphQL analytics, 30 days by day (Asia/Kolkata) and outcome', groupBy: 'day', timeZone: 'Asia/Kolkata' },
  { name: 'GraphQL analytics, 30 days by campaign and outcome', groupBy: 'campaign', timeZone: 'UTC' },
  { name: 'GraphQL analytics, 30 days by agent and outcome', groupBy: 'agent', timeZone: 'UTC' },
];

/**
 * The reads issue 31 names beside the calls': `GET /v1/contacts` (first page, a page half-way
 * down by cursor, a search by a seeded full name and by a seeded number written as people
 * write it, a tag), the audience counts of a campaign selecting every contact and of one
 * selecting a tag, and the analytics of 30 days (ANALYTICS_READS). The contact they name is
 * the large company's half-way down its list; the empty company is asked the same (its own
 * campaigns). Makes each company's campaign selecting a tag over REST.
 */
async function issueReads(service: Measured, sql: pg.Pool, large: Tenant, tenants: Tenant[]): Promise<Read[]> {
  const live = (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts WHERE company_id = $1 AND deleted_at IS NULL', [large.companyId])).rows[0].n;
  const middle = (
    await sql.query<{ created_at: Date; id: string; firstname: string; lastname: string; phone_number: string }>(
      'SELECT created_at, id, firstname, lastname, phone_number FROM contacts WHERE company_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1',
      [large.companyId, Math.floor(live / 2)],
    )
  ).rows[0];
  const cursor = encodeCursor({ createdAt: middle.created_at, id: middle.id });
  const name = `${middle.firstname} ${middle.lastname}`;
  const phone = parsePhoneNumberFromString(middle.phone_number)!.formatNational();
  const tagged = new Map<string, string>();
  for (const t of tenants) {
    const campaign = (await json(`${service.url}/v1/campaigns`, t.key, {
      method: 'POST',
      body: JSON.stringify({ name: `Tag ${TAGS.large}`, ai_agent_id: t.agentIds[0], outbound_phone_number_id: t.numberId, contacts_list_tags: [TAGS.large] }),
    })) as { id: string };
    tagged.set(t.companyId, campaign.id);
  }
  // The service's statements of an audience: its counts, then its sample of 10 (REST's default).
  const audience = (campaignId: (t: Tenant) => string, tags: string[]) => (t: Tenant) =>
    recorded(async (em) => {
      // The fields of the campaign the selection reads: its id, company and list filters (as created above; non-local calls not allowed).
      const campaign = { id: campaignId(t), company: { id: t.companyId }, contactsListSource: [], contactsListTags: tags, contactsListCategories: [] } as unknown as Campaign;
      const rules = { allowNonLocalCalls: false, countryCode: '1' };
      await audienceCounts(em, campaign, rules, loadConfig().campaigns.audienceCountLimit);
      await audienceSample(em, campaign, rules, 10);
    });
  const to = new Date();
  const range = { from: new Date(to.getTime() - 30 * 86_400_000), to };
  const page = (query: string) => get(service, () => `/v1/contacts${query}`);
  return [
    { name: 'GET /v1/contacts (first page, 50)', aimMs: READ_AIM_MS, request: page(''), plan: { statement: CONTACTS, params: (t) => [t.companyId, PAGE] } },
    {
      name: 'GET /v1/contacts, the page half-way down (cursor)',
      aimMs: READ_AIM_MS,
      request: page(`?cursor=${cursor}`),
      plan: { statement: CONTACTS, params: (t) => [t.companyId, middle.created_at, middle.id, PAGE] },
    },
    {
      name: `GET /v1/contacts?search=${name}`,
      aimMs: READ_AIM_MS,
      request: page(`?search=${encodeURIComponent(name)}`),
      // The full name's separator, a constant of each word's condition.
      plan: { statement: CONTACTS, params: (t) => [t.companyId, ...name.split(' ').map((word) => `%${word}%`), PAGE], constants: name.split(' ').map(() => ' ') },
    },
    {
      name: `GET /v1/contacts?search=${phone}`,
      aimMs: READ_AIM_MS,
      request: page(`?search=${encodeURIComponent(phone)}`),
      plan: { statement: CONTACTS, params: (t) => [t.companyId, middle.phone_number, PAGE] },
    },
    {
      name: `GET /v1/contacts?tag_name=${TAGS.small}`,
      aimMs: READ_AIM_MS,
      request: page(`?tag_name=${TAGS.small}`),
      plan: { statement: CONTACTS, params: (t) => [t.companyId, TAGS.small, PAGE] },
    },
    {
      name: 'GET /v1/campaigns/by-id/{id}/audience, every contact',
      aimMs: COUNT_AIM_MS,
      request: get(service, (t) => `/v1/campaigns/by-id/${t.campaignIds[0]}/audience`),
      plan: { recorded: audience((t) => t.campaignIds[0], []) },
    },
    {
      name: `GET /v1/campaigns/by-id/{id}/audience, tag ${TAGS.large}`,
      aimMs: COUNT_AIM_MS,
      request: get(service, (t) => `/v1/campaigns/by-id/${tagged.get(t.companyId)}/audience`),
      plan: { recorded: audience((t) => tagged.get(t.companyId)!, [TAGS.large]) },
    },
    ...ANALYTICS_READS.map(({ name, groupBy, timeZone }) => ({
      name,
      aimMs: ANALYTICS_AIM_MS,
      request: graphql(service, analyticsQuery(range, groupBy, timeZone)),
      plan: { recorded: (t: Tenant) => recorded((em) => analyticsFigures(em, { ...range, groupBy, timeZone }, t.companyId)) },
    })),
  ];
}

/** Current resident set size of `pid`, MiB. */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}

/** The service's V8 heap, MiB, from its own metrics (prom-client's defaults): committed, and the old space in use. */
async function heapMiB(service: Measured): Promise<{ committed: number; oldUsed: number }> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const metric = (pattern: RegExp) => Number(pattern.exec(text)?.[1]) / 2 ** 20;
  return { committed: metric(/^switchboard_nodejs_heap_size_total_bytes (\d+)$/m), oldUsed: metric(/^switchboard_nodejs_heap_space_size_used_bytes\{space="old"\} (\d+)$/m) };
}

/**
 * `GET /compaign/v1/contact` of `t`, read to its end as a client would: the contacts counted
 * as they stream (one `phone_number` key each), the service's RSS sampled every 50 ms.
 */
async function listing(service: Measured, t: Tenant): Promise<{ contacts: number; mib: number; seconds: number; rssBefore: number; rssPeak: number }> {
  const rssBefore = await rssMiB(service.pid);
  let rssPeak = rssBefore;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      rssPeak = Math.max(rssPeak, await rssMiB(service.pid));
      await sleep(50);
    }
  })();
  const started = performance.now();
  const res = await fetch(`${service.url}/compaign/v1/contact`, { headers: { authorization: `Bearer ${t.key}` } });
  const key = '"phone_number":';
  let contacts = 0;
  let bytes = 0;
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    const textChunk = tail + decoder.decode(chunk, { stream: true });
    for (let at = textChunk.indexOf(key); at >= 0; at = textChunk.indexOf(key, at + key.length)) contacts += 1;
    tail = textChunk.slice(-(key.length - 1));
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  return { contacts, mib: bytes / 2 ** 20, seconds, rssBefore, rssPeak };
}

/** The reads `light` while `heavy` runs over and over in the background (alone first, as the anchor). */
async function underLoad(light: autocannon.Options, heavy: () => Promise<unknown>): Promise<{ alone: Load; loaded: Load; heavyRuns: number }> {
  await load(light, WARMUP_S);
  const alone = await load(light, DURATION_S);
  let running = true;
  let heavyRuns = 0;
  const background = (async () => {
    while (running) {
      await heavy();
      heavyRuns += 1;
    }
  })();
  // The heavy read under way before the light ones are measured.
  await sleep(500);
  const loaded = await load(light, Math.max(DURATION_S, 10));
  running = false;
  await background;
  return { alone, loaded, heavyRuns };
}

/**
 * One listing of every contact of `t` with, beside it, one 30-day analytics query after
 * another until it ends; answers how many ran and how many answered an error (a statement
 * cancelled by REQUEST_STATEMENT_TIMEOUT_MS, say: GraphQL answers it with HTTP 200).
 */
async function analyticsWhileListing(service: Measured, t: Tenant): Promise<{ runs: number; failed: number }> {
  let listed = false;
  const listingDone = listing(service, t).finally(() => (listed = true));
  const to = new Date();
  const request = graphql(service, analyticsQuery({ from: new Date(to.getTime() - 30 * 86_400_000), to }))(t);
  const ran = { runs: 0, failed: 0 };
  while (!listed) {
    const res = await fetch(request.url, { method: 'POST', headers: request.headers as Record<string, string>, body: request.body as string });
    const answer = (await res.json()) as { errors?: unknown };
    ran.runs += 1;
    if (!res.ok || answer.errors) ran.failed += 1;
  }
  await listingDone;
  return ran;
}

/**
 * Sets a campaign selecting every contact of `t` active and times, from the request, its
 * first call and the end of the dialer's selection pass (`selected_at` stored, the count of
 * its `campaign_contacts`), the calls placed while it ran; then counts its calls over 10 s
 * (the dialing rate at this volume) and pauses it.
 */
async function activation(service: Measured, sql: pg.Pool, t: Tenant): Promise<{ selected: number; seconds: number; firstCallS: number | null; callsDuring: number; dialedPerS: number }> {
  const campaign = (await json(`${service.url}/v1/campaigns`, t.key, {
    method: 'POST',
    body: JSON.stringify({
      name: 'Everyone',
      ai_agent_id: t.agentIds[0],
      outbound_phone_number_id: t.numberId,
      call_time_of_day_from: '00:00:00',
      call_time_of_day_to: '00:00:00',
      days_of_week: [1, 2, 3, 4, 5, 6, 7],
      max_concurrent_calls: 200,
    }),
  })) as { id: string };
  const update = (status: string) => json(`${service.url}/compaign/v1/campaign/update/${campaign.id}`, t.key, { method: 'POST', body: JSON.stringify({ status }) });
  const count = async (query: string) => Number((await sql.query<{ n: string }>(query, [campaign.id])).rows[0].n);
  const calls = () => count('SELECT count(*) AS n FROM calls WHERE campaign_id = $1');
  const started = performance.now();
  await update('active');
  const deadline = Date.now() + 300_000;
  let firstCallS: number | null = null;
  while ((await sql.query('SELECT 1 FROM campaigns WHERE id = $1 AND selected_at IS NOT NULL', [campaign.id])).rowCount === 0) {
    if (Date.now() > deadline) throw new Error('the campaign selected nothing within 5 minutes');
    if (firstCallS === null && (await calls()) > 0) firstCallS = (performance.now() - started) / 1000;
    await sleep(50);
  }
  const seconds = (performance.now() - started) / 1000;
  const selected = await count('SELECT count(*) AS n FROM campaign_contacts WHERE campaign_id = $1');
  const callsDuring = await calls();
  await sleep(10_000);
  const dialedPerS = ((await calls()) - callsDuring) / 10;
  await update('paused');
  return { selected, seconds, firstCallS, callsDuring, dialedPerS };
}

/**
 * The plan of a read's statement: its text as pg_stat_statements recorded it while the read
 * ran (values as `$n`, or inlined where the ORM inlines them), prepared and explained with
 * the values the read sent (as many as the text numbers).
 */
async function explain(sql: pg.Pool, statement: Statement | undefined, params: unknown[], constants: unknown[] = []): Promise<string> {
  if (!statement) return '(no statement recorded: pg_stat_statements is not preloaded on this server)';
  // A stored view's instants are formatted in its select list with constants the profile numbered (`to_char("created_at" AT TIME ZONE $5, $6)`): the plan does not depend on them, so they are read as their columns.
  const text = statement.fullQuery.replace(/to_char\(("\w+") AT TIME ZONE \$\d+, \$\d+\)/g, '$1');
  // pg_stat_statements numbers the statement's other constants too, after its values: those the read names (`constants`, in order) are given back, placeholders renumbered.
  const numbers = [...new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const values = numbers.map((n) => (n <= params.length ? params[n - 1] : constants[numbers.filter((m) => m > params.length).indexOf(n)]));
  if (values.some((v) => v === undefined)) return `(not explained: the recorded text has ${numbers.length} placeholders, constants among them, for the read's ${params.length} values)`;
  const renumbered = text.replace(/\$(\d+)/g, (_, n: string) => `$${numbers.indexOf(Number(n)) + 1}`);
  const client = await sql.connect();
  try {
    await client.query(`PREPARE volume_read AS ${renumbered}`);
    // EXECUTE takes its values in its text (a utility statement has no parameters of its own).
    const literal = (v: unknown) => client.escapeLiteral(v instanceof Date ? v.toISOString() : String(v));
    const execute = values.length > 0 ? `EXECUTE volume_read(${values.map(literal).join(', ')})` : 'EXECUTE volume_read';
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${execute}`);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } catch (err) {
    return `(could not explain: ${err instanceof Error ? err.message : String(err)})`;
  } finally {
    await client.query('DEALLOCATE ALL').catch(() => undefined);
    client.release();
  }
}

/** A plan for docs/performance.md: the read, its statement and what PostgreSQL did. */
const planSection = (name: string, statement: Statement | undefined, plan: string, text = statement?.fullQuery) =>
  `#### ${name}\n\n${statement ? `${statement.perUnit.toFixed(2)} a request, ${(statement.totalMs / Math.max(1, statement.calls)).toFixed(2)} ms each on average:\n\n` : ''}\`\`\`\n${text?.replace(/\s+/g, ' ') ?? ''}\n\n${plan}\n\`\`\``;

/**
 * The rows of the whole history beside the reads: the legacy listing of every contact of
 * `large`, requests while listings (and analytics) run, and the activation of a campaign
 * selecting every contact; their plans added to `plans`.
 */
async function historyRows(service: Measured, sql: pg.Pool, large: Tenant, statements: Awaited<ReturnType<typeof statementProfile>>, plans: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  log('listing: GET /compaign/v1/contact of the large company');
  await statements.start();
  const heapBefore = await heapMiB(service);
  const listed = await listing(service, large);
  // Read once the listing has ended: its garbage is still held until V8's next full collection.
  const heapAfter = await heapMiB(service);
  const expected = Number((await sql.query<{ n: string }>('SELECT count(*) AS n FROM contacts WHERE company_id = $1 AND deleted_at IS NULL', [large.companyId])).rows[0].n);
  const pageStatement = (await statements.top(Math.ceil(expected / 1000), 5)).find((st) => /\(created_at, id\) </.test(st.fullQuery));
  // A page from the middle of the listing: after the row half-way down.
  const middle = (
    await sql.query<{ at: Date; id: string }>('SELECT created_at AS at, id FROM contacts WHERE company_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1', [
      large.companyId,
      Math.floor(expected / 2),
    ])
  ).rows[0];
  plans.push(planSection('GET /compaign/v1/contact: a page of 1,000 half-way down', pageStatement, await explain(sql, pageStatement, [large.companyId, middle?.at, middle?.id, 1000])));
  const growth = listed.rssPeak - listed.rssBefore;
  rows.push({
    figure: `GET /compaign/v1/contact (${fixed(expected)} contacts)`,
    measured: `${fixed(listed.contacts)} contacts, ${fixed(listed.mib)} MiB in ${listed.seconds.toFixed(1)} s; service RSS ${fixed(listed.rssBefore)} -> peak ${fixed(listed.rssPeak)} MiB (${signed(growth)}; V8's heap ${signed(heapAfter.committed - heapBefore.committed)}, its old space in use ${signed(heapAfter.oldUsed - heapBefore.oldUsed)})`,
    anchor: `${fixed(expected)} contacts stored`,
    aim: { text: `streams, RSS grows < ${RSS_AIM_MIB} MiB`, met: listed.contacts === expected && growth < RSS_AIM_MIB },
  });

  log('requests while the listing runs');
  const light = get(service, (t) => `/v1/calls?status=completed&campaign_id=${t.campaignIds[2]}`)(large);
  const during = await underLoad(light, () => listing(service, large));
  rows.push({
    figure: 'GET /v1/calls (campaign + status) while 1M listings run',
    measured: `p99 ${during.loaded.p99Ms} ms, ${fixed(during.loaded.reqPerS)} req/s (${during.heavyRuns} listings)`,
    anchor: `alone: p99 ${during.alone.p99Ms} ms, ${fixed(during.alone.reqPerS)} req/s`,
    aim: { text: 'p99 within 2x of alone', met: during.loaded.p99Ms <= 2 * during.alone.p99Ms && during.loaded.failed === 0 },
  });

  log('requests while 30-day analytics queries and the listing run');
  const analytics = { runs: 0, failed: 0 };
  const withAnalytics = await underLoad(light, async () => {
    const ran = await analyticsWhileListing(service, large);
    analytics.runs += ran.runs;
    analytics.failed += ran.failed;
  });
  rows.push({
    figure: 'GET /v1/calls (campaign + status) while 30-day analytics and a 1M listing run',
    measured: `p99 ${withAnalytics.loaded.p99Ms} ms, ${fixed(withAnalytics.loaded.reqPerS)} req/s (${withAnalytics.heavyRuns} listings, ${analytics.runs} analytics queries${analytics.failed ? `, ${analytics.failed} of them answered an error` : ''})`,
    anchor: `alone: p99 ${withAnalytics.alone.p99Ms} ms, ${fixed(withAnalytics.alone.reqPerS)} req/s`,
    aim: { text: 'p99 within 2x of alone', met: withAnalytics.loaded.p99Ms <= 2 * withAnalytics.alone.p99Ms && withAnalytics.loaded.failed === 0 },
  });
  rows.push(await activationRow(service, sql, large, statements, plans));
  return rows;
}

/** The activation of a campaign selecting every contact of `large`, as a row; its statement added to `plans`. */
async function activationRow(service: Measured, sql: pg.Pool, large: Tenant, statements: Awaited<ReturnType<typeof statementProfile>>, plans: string[]): Promise<Row> {
  log('activation: a campaign selecting every contact of the large company');
  await statements.start();
  const activated = await activation(service, sql, large);
  const selection = (await statements.top(1, 8)).find((st) => /INSERT INTO campaign_contacts/i.test(st.fullQuery));
  plans.push(planSection('Activating a campaign: the selection of every contact (not explained: an INSERT; its time as it ran)', selection, ''));
  return {
    figure: `activating a campaign selecting every contact`,
    measured:
      `${fixed(activated.selected)} contacts selected ${activated.seconds.toFixed(1)} s after the request, ` +
      `the first call ${activated.firstCallS === null ? 'after it' : `${activated.firstCallS.toFixed(1)} s after it`} (${fixed(activated.callsDuring)} placed meanwhile); ` +
      `then ${fixed(activated.dialedPerS)} calls/s placed`,
    anchor: `bench:campaigns: ${DIALER_AIM_PER_S} contacts/s aim (zero-length calls, 200 live)`,
    aim: {
      text: `selection < ${SELECTION_AIM_S} s, then >= ${DIALER_AIM_PER_S} calls/s`,
      met: activated.seconds < SELECTION_AIM_S && activated.dialedPerS >= DIALER_AIM_PER_S,
    },
  };
}

async function main(): Promise<void> {
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const loadBefore = os.loadavg();
  const db = await benchDatabase();
  const sql = new pg.Pool({ connectionString: db.url, max: 3 });
  // The database stops at the end while the pool may still hold an idle connection.
  sql.on('error', () => undefined);
  let service: Measured | undefined;
  try {
    const statements = await statementProfile(db.url);
    // The plans the docs keep are found by their statements' texts as pg_stat_statements recorded them.
    if (WRITES_DOCS && !statements.available) {
      await statements.close();
      throw new Error("pg_stat_statements is not preloaded on this server (shared_preload_libraries): a full run would write the docs' plans without their statements");
    }
    const port = await freePort();
    // Zero-length simulated calls: the activation's dialing rate is the dialer's, as in bench:campaigns.
    const nodeArgs = process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
    service = await startProcess(path.join(ROOT, 'dist/src/main.js'), port, serviceEnv(db.url, port, { SIM_RING_MS: '0', SIM_TALK_MS: '0' }), [...SERVICE_NODE_FLAGS, ...nodeArgs]);
    measured = service;
    log(`service: pid ${service.pid} on ${service.url}, ${db.kind}; scale ${SCALE}`);
    const large = await tenant(service, db.url, 'Large', CAMPAIGNS, '+14155552671');
    const small = await tenant(service, db.url, 'Small', CAMPAIGNS, '+14155552672');
    const empty = await tenant(service, db.url, 'Empty', 3, '+14155552673');
    log('seeding: the large and the small company');
    const seeded = await seed(sql, [
      [large, LARGE, '+1415'],
      [small, SMALL, '+1628'],
    ]);
    let started = performance.now();
    await sql.query('VACUUM (ANALYZE) contacts, calls');
    const vacuumS = (performance.now() - started) / 1000;
    log(`  VACUUM (ANALYZE) in ${vacuumS.toFixed(1)} s`);
    started = performance.now();
    // The activation reads no analytics: their rollups are left unfolded.
    const rollups = ONLY_ACTIVATION ? 0 : await foldRollups(sql);
    const rollupsS = (performance.now() - started) / 1000;
    log(`  analytics rollups: ${fixed(rollups)} buckets folded in ${rollupsS.toFixed(1)} s`);

    const rows: Row[] = [];
    const plans: string[] = [];
    const allReads = ONLY_ACTIVATION ? [] : [...reads(service), ...(await issueReads(service, sql, large, [large, empty]))];
    for (const read of allReads.filter((r) => ONLY_READS === undefined || r.name.includes(ONLY_READS))) {
      await answersCleanly(read.name, read.request(empty));
      await answersCleanly(read.name, read.request(large));
      await load(read.request(empty), WARMUP_S);
      const onEmpty = await load(read.request(empty), DURATION_S);
      await load(read.request(large), WARMUP_S);
      await statements.start();
      const onLarge = await load(read.request(large), DURATION_S);
      const top = await statements.top(onLarge.requests, 5);
      log(
        `  ${read.name}: p99 ${onLarge.p99Ms} ms (${fixed(onLarge.reqPerS)} req/s, CPU ${onLarge.cpuMsPerReq.toFixed(2)} ms/req), empty company p99 ${onEmpty.p99Ms} ms${onLarge.failed ? `, ${onLarge.failed} FAILED` : ''}`,
      );
      for (const s of top) log(`    ${(100 * s.share).toFixed(1).padStart(5)}%  ${(s.totalMs / Math.max(1, s.calls)).toFixed(2)} ms  ${s.query}`);
      rows.push({
        figure: read.name,
        // A read slower than the run answers nothing in it: no p99 to show (autocannon's is 0).
        measured:
          onLarge.requests === 0
            ? `no answer within ${DURATION_S} s${onLarge.failed ? `, ${onLarge.failed} failed` : ''}`
            : `p99 ${onLarge.p99Ms} ms, ${fixed(onLarge.reqPerS)} req/s, service CPU ${onLarge.cpuMsPerReq.toFixed(2)} ms/req${onLarge.failed ? `, ${onLarge.failed} failed` : ''}`,
        anchor: `empty company: p99 ${onEmpty.p99Ms} ms, ${fixed(onEmpty.reqPerS)} req/s, CPU ${onEmpty.cpuMsPerReq.toFixed(2)} ms/req`,
        aim: { text: `p99 < ${read.aimMs} ms`, met: onLarge.requests > 0 && onLarge.p99Ms < read.aimMs && onLarge.failed === 0 },
      });
      const { plan } = read;
      if ('recorded' in plan) {
        const sent = await plan.recorded(large);
        for (const [i, one] of sent.entries()) {
          const name = sent.length > 1 ? `${read.name}: statement ${i + 1} of ${sent.length}` : read.name;
          plans.push(
            planSection(
              name,
              top.find((st) => sameStatement(st.fullQuery, one.text)),
              await explainRecorded(sql, one),
              one.text,
            ),
          );
        }
      } else {
        const statement = top.find((st) => plan.statement.test(st.fullQuery));
        plans.push(planSection(read.name, statement, await explain(sql, statement, plan.params(large), plan.constants)));
      }
    }

    if (ONLY_ACTIVATION) rows.push(await activationRow(service, sql, large, statements, plans));
    else if (ONLY_READS === undefined) rows.push(...(await historyRows(service, sql, large, statements, plans)));

    const loadAfter = os.loadavg();
    const version = (await sql.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
    const size = (await sql.query<{ size: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS size')).rows[0].size;
    const run = {
      date,
      machine: `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      load: `${loadBefore.map((l) => l.toFixed(2)).join(', ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(', ')} after`,
      database: `PostgreSQL ${version} (${db.kind}), ${size}`,
      rows,
      notes: [
        `Seed of both companies (${fixed(LARGE.contacts + SMALL.contacts)} contacts, ${fixed(LARGE.calls + SMALL.calls)} calls): contacts ${seeded.contactsS.toFixed(0)} s, calls ${seeded.callsS.toFixed(0)} s, their indexes built after ${seeded.indexesS.toFixed(0)} s, VACUUM (ANALYZE) ${vacuumS.toFixed(0)} s, the analytics rollups of their ${fixed(rollups)} 15-minute buckets folded by the service ${rollupsS.toFixed(0)} s.`,
      ],
    };
    process.stdout.write(`\n${text(run)}\n`);
    await statements.close();
    if (WRITES_DOCS) {
      await writeResults(DOC, run, RESULTS);
      await writeBlock(DOC, PLANS, plans.join('\n\n'));
      process.stdout.write('\nWritten into docs/performance.md.\n');
    } else {
      process.stdout.write(
        `\n${plans.join('\n\n')}\n\nVOLUME_SCALE=${SCALE}${ONLY_READS === undefined ? '' : `, VOLUME_READS=${ONLY_READS}`}${ONLY_ACTIVATION ? ', VOLUME_ACTIVATION=only' : ''}: docs/performance.md left as it was (the plans above).\n`,
      );
    }
    started = performance.now();
  } catch (err) {
    if (service) log(`stderr of the service:\n${service.errors()}`);
    throw err;
  } finally {
    await service?.stop();
    if (process.env.BENCH_CPU_PROF === '1') logNewestProfile(PROFILE_DIR, log);
    await sql.end();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`Benchmark failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
