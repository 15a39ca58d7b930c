import { Call } from '../../../src/entities';
import type { CallStatus } from '../../../src/entities/call.entity';
import { FROM, okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { gqlData } from '../graphql/graphql-client';
import { percentileCont, withinLatencyError } from './latency-bound';

/**
 * GraphQL `analytics` served by the rollups (docs/analytics.md, "Rollups"): the same answers
 * from the calls (every bucket dirty) and from the folded rollups, both equal to figures
 * computed here from the calls stored; changes after a fold read from the calls until the next.
 * The sweeps (and so the periodic fold) are out of the way: the suite folds when it means to.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let secondAgentId: string;

const TIME_ZONE = 'Asia/Kolkata';
// Mid-bucket edges: 18:37:11.123 UTC is 00:07:11 in Kolkata, so the first day's first bucket is partial.
const range = { from: '2026-03-01T18:37:11.123Z', to: '2026-03-04T12:52:40.000Z' };
// Ended statuses only: the call sweep would end a live one meanwhile.
const STATUSES: CallStatus[] = ['completed', 'completed', 'completed', 'busy', 'no-answer', 'failed', 'canceled'];

interface Stored {
  id: string;
  at: Date;
  status: CallStatus;
  answered: boolean;
  duration: number;
  cost: number;
  campaignId: string | null;
  agentId: string;
  latencies: number[];
  deleted: boolean;
}

/** A deterministic sequence of numbers in [0, 1) (a linear congruential generator). */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

let stored: Stored[] = [];

/** Stores calls of `tenant` as the lifecycle leaves them, with the triggers on (their buckets marked dirty). */
async function store(tenant: Tenant, calls: Omit<Stored, 'id'>[]): Promise<Stored[]> {
  const em = t.app.orm.em.fork();
  const made = calls.map((k) => {
    const turns = k.latencies.flatMap((ms, i) => [
      { role: 'user', text: `question ${i}`, at: k.at.toISOString() },
      { role: 'agent', text: `answer ${i}`, at: k.at.toISOString(), latency_ms: ms },
    ]);
    const call = em.create(
      Call,
      {
        company: tenant.companyId,
        aiAgent: k.agentId,
        campaign: k.campaignId,
        isTest: k.campaignId === null,
        callProvider: 'simulated',
        callFrom: FROM,
        callTo: '+14155550123',
        priceUnit: 'USD',
        callStatus: k.status,
        createdAt: k.at,
        startedAt: k.answered ? k.at : null,
        endedAt: k.at,
        callDuration: k.duration,
        cost: k.cost,
        transcriptObject: { turns },
        deletedAt: k.deleted ? k.at : null,
      },
      { persist: false },
    );
    return { call, stored: { ...k, id: call.id } };
  });
  // One statement: the insert trigger marks each bucket once.
  await em.insertMany(made.map((m) => m.call));
  return made.map((m) => m.stored);
}

/** `count` calls spread over the range and a little past each end, every figure varied. */
function history(count: number, seed: number, agents: string[], campaignId: string): Omit<Stored, 'id'>[] {
  const next = sequence(seed);
  const start = Date.parse(range.from) - 3_600_000;
  const span = Date.parse(range.to) + 3_600_000 - start;
  return Array.from({ length: count }, () => {
    const status = STATUSES[Math.floor(next() * STATUSES.length)];
    const answered = status === 'completed';
    return {
      at: new Date(start + Math.floor(next() * span)),
      status,
      answered,
      duration: answered ? Math.floor(next() * 600) : 0,
      cost: Math.round(next() * 100_000) / 10_000,
      campaignId: next() < 0.7 ? campaignId : null,
      agentId: agents[Math.floor(next() * agents.length)],
      latencies: answered ? Array.from({ length: Math.floor(next() * 4) }, () => (next() < 0.05 ? 0 : Math.round(20 + next() ** 3 * 12_000))) : [],
      deleted: next() < 0.05,
    };
  });
}

const QUERY = `query($from: String!, $to: String!, $groupBy: AnalyticsGroupBy!, $timeZone: String) {
  analytics(from: $from, to: $to, groupBy: $groupBy, timeZone: $timeZone) { total { ...figures } rows { ...figures } }
}
fragment figures on AnalyticsRow { key calls answered answerRate averageDurationSeconds cost latencyMedianMs latencyP90Ms outcomes { outcome calls } }`;

const GROUPS = ['DAY', 'CAMPAIGN', 'AGENT', 'OUTCOME'] as const;
type Group = (typeof GROUPS)[number];

/** What a query asks: its range and the time zone of its days. */
interface Window {
  from: string;
  to: string;
  timeZone: string;
}
const WINDOW: Window = { ...range, timeZone: TIME_ZONE };

const analyticsIn = async (groupBy: Group, w: Window) => (await gqlData(t, QUERY, { ...w, groupBy }, a.key)).analytics;
const analytics = (groupBy: Group) => analyticsIn(groupBy, WINDOW);

/** A formatter of the day in each zone, made once (making one costs more than formatting thousands of dates). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const dayIn = (timeZone: string): Intl.DateTimeFormat => {
  let format = dayFormats.get(timeZone);
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format;
};
const keyOf: Record<Group, (c: Stored, timeZone: string) => string | null> = {
  DAY: (c, timeZone) => dayIn(timeZone).format(c.at),
  CAMPAIGN: (c) => c.campaignId,
  AGENT: (c) => c.agentId,
  OUTCOME: (c) => c.status,
};

/** The figures of `calls` as the API answers them, computed here: sums exact, latencies within the stated error. */
function figuresOf(key: string | null, calls: Stored[]) {
  const answered = calls.filter((c) => c.answered);
  const latencies = calls.flatMap((c) => c.latencies);
  const outcomes = new Map<string, number>();
  for (const c of calls) outcomes.set(c.status, (outcomes.get(c.status) ?? 0) + 1);
  return {
    key,
    calls: calls.length,
    answered: answered.length,
    answerRate: calls.length === 0 ? 0 : answered.length / calls.length,
    averageDurationSeconds: answered.length === 0 ? null : expect.closeTo(answered.reduce((sum, c) => sum + c.duration, 0) / answered.length, 9),
    cost: expect.closeTo(
      calls.reduce((sum, c) => sum + c.cost, 0),
      6,
    ),
    latencyMedianMs: withinLatencyError(percentileCont(latencies, 0.5)),
    latencyP90Ms: withinLatencyError(percentileCont(latencies, 0.9)),
    outcomes: expect.arrayContaining([...outcomes].map(([outcome, n]) => ({ outcome: outcome.toUpperCase().replace('-', '_'), calls: n }))),
  };
}

/** What the API must answer for `groupBy` over the calls stored now: the live calls of the range, grouped. */
function expected(groupBy: Group, w: Window = WINDOW) {
  const live = stored.filter((c) => !c.deleted && c.at.getTime() >= Date.parse(w.from) && c.at.getTime() < Date.parse(w.to));
  const groups = new Map<string | null, Stored[]>();
  for (const c of live) {
    const key = keyOf[groupBy](c, w.timeZone);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const keys = [...groups.keys()].sort((x, y) => (x === null ? 1 : y === null ? -1 : x < y ? -1 : x > y ? 1 : 0));
  return { total: figuresOf(null, live), rows: keys.map((key) => figuresOf(key, groups.get(key)!)) };
}

const dirtyBuckets = async (companyId: string) => Number((await t.app.orm.em.fork().execute<{ n: string }[]>('SELECT count(*) AS n FROM call_rollup_dirty WHERE company_id = ?', [companyId]))[0].n);
const fold = () => t.app.services.analytics.fold(t.app.orm.em.fork());

beforeAll(async () => {
  ({ t, a, b } = await twoTenants({ CAMPAIGN_SWEEP_MS: '3600000' }));
  secondAgentId = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Second agent', prompt: 'Hi' } })).id;
  stored = await store(a, history(400, 7, [a.agent.id, secondAgentId], a.campaign.id));
  // The other company's calls share the buckets and count nowhere here.
  await store(b, history(50, 11, [b.agent.id], b.campaign.id));
});
afterAll(() => t.close());

describe('analytics rollups', () => {
  it('answers from the folded rollups what it answered from the calls, equal to the calls’ own figures, in a zone of half hours with edges mid-bucket', async () => {
    expect(await dirtyBuckets(a.companyId)).toBeGreaterThan(100);
    const fromCalls = await Promise.all(GROUPS.map(analytics));
    expect(await fold()).toBeGreaterThan(100);
    expect(await dirtyBuckets(a.companyId)).toBe(0);
    const fromRollups = await Promise.all(GROUPS.map(analytics));
    expect(fromRollups).toEqual(fromCalls);
    for (const [i, groupBy] of GROUPS.entries()) expect(fromRollups[i]).toEqual(expected(groupBy));
    expect(fromRollups[0].rows.map((r: { key: string }) => r.key)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04']);
  });

  it('reads a bucket changed since its fold from its calls until the next fold', async () => {
    await fold();
    const [added] = await store(a, [
      { at: new Date('2026-03-02T10:20:00Z'), status: 'busy', answered: false, duration: 0, cost: 1.2345, campaignId: a.campaign.id, agentId: secondAgentId, latencies: [], deleted: false },
    ]);
    stored.push(added);
    expect(await dirtyBuckets(a.companyId)).toBe(1);
    for (const groupBy of GROUPS) expect(await analytics(groupBy)).toEqual(expected(groupBy));
    await fold();
    expect(await dirtyBuckets(a.companyId)).toBe(0);
    for (const groupBy of GROUPS) expect(await analytics(groupBy)).toEqual(expected(groupBy));
  });

  it("counts a folded call's new cost, status, agent, latencies and deletion, before and after the next fold", async () => {
    await fold();
    const em = t.app.orm.em.fork();
    const inRange = stored.filter((c) => !c.deleted && c.at.getTime() > Date.parse(range.from) + 3_600_000 && c.at.getTime() < Date.parse(range.to) - 3_600_000);
    const [repriced, ended, moved, removed, erased] = inRange;
    await em.nativeUpdate(Call, { id: repriced.id }, { cost: 42.4242 });
    repriced.cost = 42.4242;
    await em.nativeUpdate(
      Call,
      { id: ended.id },
      { callStatus: 'completed', startedAt: ended.at, callDuration: 77, transcriptObject: { turns: [{ role: 'agent', text: 'hi', at: ended.at.toISOString(), latency_ms: 31_000 }] } },
    );
    Object.assign(ended, { status: 'completed', answered: true, duration: 77, latencies: [31_000] });
    await em.nativeUpdate(Call, { id: moved.id }, { aiAgent: moved.agentId === secondAgentId ? a.agent.id : secondAgentId });
    moved.agentId = moved.agentId === secondAgentId ? a.agent.id : secondAgentId;
    await em.nativeUpdate(Call, { id: removed.id }, { deletedAt: new Date() });
    removed.deleted = true;
    await em.nativeDelete(Call, { id: erased.id });
    stored = stored.filter((c) => c !== erased);
    // A change no figure reads marks nothing.
    await em.nativeUpdate(Call, { id: repriced.id }, { notes: 'called back' });
    expect(await dirtyBuckets(a.companyId)).toBeLessThanOrEqual(5);
    for (const groupBy of GROUPS) expect(await analytics(groupBy)).toEqual(expected(groupBy));
    await fold();
    for (const groupBy of GROUPS) expect(await analytics(groupBy)).toEqual(expected(groupBy));
  });

  it('answers latency percentiles within the stated error of percentile_cont over latencies from 0 ms to minutes', async () => {
    const next = sequence(3);
    const latencies = Array.from({ length: 2_000 }, () => (next() < 0.02 ? 0 : Math.round(1 + next() ** 4 * 300_000)));
    const at = new Date('2026-03-03T05:05:05Z');
    const wide = await store(a, [{ at, status: 'completed', answered: true, duration: 10, cost: 0, campaignId: null, agentId: a.agent.id, latencies, deleted: false }]);
    stored.push(...wide);
    await fold();
    const found = (await gqlData(t, QUERY, { from: at.toISOString(), to: new Date(at.getTime() + 1).toISOString(), groupBy: 'DAY' }, a.key)).analytics.total;
    const inBucket = (await gqlData(t, QUERY, { from: '2026-03-03T05:00:00Z', to: '2026-03-03T05:15:00Z', groupBy: 'DAY' }, a.key)).analytics.total;
    const bucket = stored.filter((c) => !c.deleted && c.at.getTime() >= Date.parse('2026-03-03T05:00:00Z') && c.at.getTime() < Date.parse('2026-03-03T05:15:00Z'));
    // From the calls (a range inside one bucket), then from the bucket's rollup.
    expect(found.latencyMedianMs).toEqual(withinLatencyError(percentileCont(latencies, 0.5)));
    expect(found.latencyP90Ms).toEqual(withinLatencyError(percentileCont(latencies, 0.9)));
    expect(inBucket.latencyMedianMs).toEqual(
      withinLatencyError(
        percentileCont(
          bucket.flatMap((c) => c.latencies),
          0.5,
        ),
      ),
    );
    expect(inBucket.latencyP90Ms).toEqual(
      withinLatencyError(
        percentileCont(
          bucket.flatMap((c) => c.latencies),
          0.9,
        ),
      ),
    );
  });
});

/**
 * The day rollups (`call_rollup_days`): whole UTC days inside a range read from them where a
 * day of the query's zone is that UTC day (or for groups other than days), the rest from the
 * 15-minute rollups and the calls; the answers stay the calls' own.
 */
describe('analytics day rollups', () => {
  const DAY = '2026-03-02';
  // Mid-bucket edges on days partly in range: 2026-03-02 and 2026-03-03 are whole UTC days inside it.
  const straddling = { from: '2026-03-01T19:03:07.000Z', to: '2026-03-04T07:21:30.500Z' };
  // UTC; a zone at UTC's offset in March; 30-, 45-minute and negative half-hour offsets.
  const ZONES = ['UTC', 'Europe/London', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Eucla', 'America/St_Johns'];

  const dayRollups = async (companyId: string) =>
    t.app.orm.em
      .fork()
      .execute<{ day: string; calls: number }[]>(`SELECT to_char(day AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, calls FROM call_rollup_days WHERE company_id = ? AND dim = 'all' ORDER BY day`, [
        companyId,
      ]);
  const callsOf = async (day: string) => (await dayRollups(a.companyId)).find((d) => d.day === day)?.calls;
  const liveCallsOn = (day: string) => stored.filter((c) => !c.deleted && c.at.toISOString().startsWith(day)).length;

  it('keeps each UTC day the sums of its 15-minute rollups, for every dimension', async () => {
    await fold();
    const [{ differing }] = await t.app.orm.em.fork().execute<{ differing: number }[]>(
      `WITH buckets AS (
         SELECT company_id, dim, date_bin('24 hours', bucket, timestamptz '2000-01-01 00:00:00+00') AS day, key, sum(calls)::int AS calls, sum(answered)::int AS answered,
                sum(duration_sum)::bigint AS duration_sum, sum(duration_count)::int AS duration_count, sum(cost) AS cost
         FROM call_rollups GROUP BY 1, 2, 3, 4
       )
       SELECT count(*)::int AS differing FROM buckets b FULL JOIN call_rollup_days d USING (company_id, dim, day, key)
       WHERE (b.calls, b.answered, b.duration_sum, b.duration_count, b.cost) IS DISTINCT FROM (d.calls, d.answered, d.duration_sum, d.duration_count, d.cost)`,
    );
    expect(differing).toBe(0);
    expect(await callsOf(DAY)).toBe(liveCallsOn(DAY));
  });

  it('answers a range whose edges cut days, by day in zones of whole, half and three-quarter hour offsets and by each group, as the calls do', async () => {
    await fold();
    for (const timeZone of ZONES) {
      const w = { ...straddling, timeZone };
      for (const groupBy of GROUPS) expect(await analyticsIn(groupBy, w)).toEqual(expected(groupBy, w));
    }
  });

  it('reads a whole UTC day from its day rollup by day in UTC and by campaign, and from its buckets by day in a zone off UTC', async () => {
    await fold();
    const utc = { ...straddling, timeZone: 'UTC' };
    const kolkata = { ...straddling, timeZone: 'Asia/Kolkata' };
    const em = t.app.orm.em.fork();
    const shift = (by: number) =>
      em.execute(`UPDATE call_rollup_days SET calls = calls + ? WHERE company_id = ? AND dim IN ('all', 'campaign') AND day = (?::timestamp AT TIME ZONE 'UTC')`, [by, a.companyId, DAY]);
    await shift(1000);
    try {
      const byDay = await analyticsIn('DAY', utc);
      expect(byDay.rows.find((r: { key: string }) => r.key === DAY).calls).toBe(liveCallsOn(DAY) + 1000);
      expect((await analyticsIn('CAMPAIGN', utc)).total.calls).toBe(expected('CAMPAIGN', utc).total.calls + 1000);
      expect(await analyticsIn('DAY', kolkata)).toEqual(expected('DAY', kolkata));
    } finally {
      await shift(-1000);
    }
  });

  it("keeps no rollup of the day under way, and writes the day before at its company's first fold after it ended", async () => {
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const call = (at: number) => ({ at: new Date(at), status: 'busy' as const, answered: false, duration: 0, cost: 0.1, campaignId: null, agentId: a.agent.id, latencies: [], deleted: false });
    stored.push(...(await store(a, [call(today - 12 * 3_600_000)])));
    await fold();
    expect((await dayRollups(a.companyId)).map((d) => d.day)).toContain(dayOf(today - 86_400_000));
    // As when the day was folded before it ended: its rows not written.
    await t.app.orm.em.fork().execute(`DELETE FROM call_rollup_days WHERE company_id = ? AND day = ?::timestamptz`, [a.companyId, new Date(today - 86_400_000)]);
    stored.push(...(await store(a, [call(Date.now())])));
    await fold();
    const days = (await dayRollups(a.companyId)).map((d) => d.day);
    expect(days).toContain(dayOf(today - 86_400_000));
    expect(days).not.toContain(dayOf(today));
  });

  it('counts late calls into a folded day, in a bucket without calls and in one with, from the buckets until the next fold refolds the day', async () => {
    await fold();
    const busy = stored.find((c) => !c.deleted && c.at.toISOString().startsWith('2026-03-03'))!;
    const quarter = 15 * 60_000;
    let empty = Date.parse('2026-03-03T00:00:00Z');
    while (stored.some((c) => !c.deleted && Math.floor(c.at.getTime() / quarter) === empty / quarter)) empty += quarter;
    const late = await store(a, [
      { at: new Date(empty + 61_000), status: 'completed', answered: true, duration: 42, cost: 0.5, campaignId: a.campaign.id, agentId: secondAgentId, latencies: [250, 9_000], deleted: false },
      { at: new Date(busy.at.getTime() + 1), status: 'busy', answered: false, duration: 0, cost: 0.25, campaignId: null, agentId: a.agent.id, latencies: [], deleted: false },
    ]);
    stored.push(...late);
    expect(await dirtyBuckets(a.companyId)).toBe(2);
    for (const timeZone of ['UTC', 'Asia/Kathmandu']) {
      const w = { ...straddling, timeZone };
      for (const groupBy of GROUPS) expect(await analyticsIn(groupBy, w)).toEqual(expected(groupBy, w));
    }
    await fold();
    expect(await callsOf('2026-03-03')).toBe(liveCallsOn('2026-03-03'));
    for (const groupBy of GROUPS) expect(await analyticsIn(groupBy, { ...straddling, timeZone: 'UTC' })).toEqual(expected(groupBy, { ...straddling, timeZone: 'UTC' }));
  });
});
