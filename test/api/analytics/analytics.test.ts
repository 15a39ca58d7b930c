import { Call } from '../../../src/entities';
import { FROM, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from '../graphql/graphql-client';
import { withinLatencyError } from './latency-bound';

/** GraphQL `analytics` over known calls (docs/analytics.md): figures per group and for the range, tenant-scoped, range bounded. */
let t: TestApp;
let a: Tenant;
let b: Tenant;

interface Known {
  at: string;
  status: 'completed' | 'busy' | 'no-answer';
  duration?: number;
  cost?: number;
  latencies?: number[];
  campaign?: boolean;
}

/** Stores calls as the lifecycle leaves them: answered ones with `started_at`, their agent turns with `latency_ms`. */
async function store(tenant: Tenant, calls: Known[]): Promise<void> {
  const em = t.app.orm.em.fork();
  for (const k of calls) {
    const answered = k.status === 'completed';
    const turns = (k.latencies ?? []).flatMap((ms, i) => [
      { role: 'user', text: `question ${i}`, at: k.at },
      { role: 'agent', text: `answer ${i}`, at: k.at, latency_ms: ms },
    ]);
    const call = em.create(
      Call,
      {
        company: tenant.companyId,
        aiAgent: tenant.agent.id,
        campaign: k.campaign ? tenant.campaign.id : null,
        callProvider: 'simulated',
        callFrom: FROM,
        callTo: '+14155550123',
        priceUnit: 'USD',
        callStatus: k.status,
        createdAt: new Date(k.at),
        startedAt: answered ? new Date(k.at) : null,
        endedAt: new Date(k.at),
        callDuration: k.duration ?? 0,
        cost: k.cost ?? 0,
        transcriptObject: { turns },
      },
      { persist: false },
    );
    await em.insert(call);
  }
}

beforeAll(async () => {
  ({ t, a, b } = await twoTenants());
  await store(a, [
    { at: '2026-03-01T10:00:00Z', status: 'completed', duration: 60, cost: 0.5, latencies: [100, 200, 300], campaign: true },
    { at: '2026-03-01T11:00:00Z', status: 'busy', campaign: true },
    // Day 2 in UTC, still March 1st in New York.
    { at: '2026-03-02T03:00:00Z', status: 'completed', duration: 30, cost: 0.25, latencies: [400] },
    // Outside the range.
    { at: '2026-02-01T10:00:00Z', status: 'completed', duration: 999, cost: 9, latencies: [9999] },
  ]);
  await store(b, [{ at: '2026-03-01T10:00:00Z', status: 'no-answer', cost: 7 }]);
});
afterAll(() => t.close());

const QUERY = `query($from: String!, $to: String!, $groupBy: AnalyticsGroupBy!, $timeZone: String) {
  analytics(from: $from, to: $to, groupBy: $groupBy, timeZone: $timeZone) {
    from to groupBy timeZone
    total { ...figures }
    rows { ...figures }
  }
}
fragment figures on AnalyticsRow { key calls answered answerRate averageDurationSeconds cost latencyMedianMs latencyP90Ms outcomes { outcome calls } }`;

const range = { from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' };
const analytics = async (vars: Record<string, unknown>, token = a.key) => (await gqlData(t, QUERY, { ...range, ...vars }, token)).analytics;

describe('analytics', () => {
  it('answers calls, answer rate, mean duration, cost and latency percentiles per day and for the range', async () => {
    const found = await analytics({ groupBy: 'DAY' });
    expect(found).toMatchObject({ from: '2026-03-01T00:00:00.000Z', to: '2026-04-01T00:00:00.000Z', groupBy: 'DAY', timeZone: 'UTC' });
    expect(found.rows).toEqual([
      {
        key: '2026-03-01',
        calls: 2,
        answered: 1,
        answerRate: 0.5,
        averageDurationSeconds: 60,
        cost: 0.5,
        latencyMedianMs: withinLatencyError(200),
        latencyP90Ms: withinLatencyError(280),
        outcomes: [
          { outcome: 'COMPLETED', calls: 1 },
          { outcome: 'BUSY', calls: 1 },
        ],
      },
      {
        key: '2026-03-02',
        calls: 1,
        answered: 1,
        answerRate: 1,
        averageDurationSeconds: 30,
        cost: 0.25,
        latencyMedianMs: withinLatencyError(400),
        latencyP90Ms: withinLatencyError(400),
        outcomes: [{ outcome: 'COMPLETED', calls: 1 }],
      },
    ]);
    // Percentiles of the range are over every turn, not of the days' percentiles.
    expect(found.total).toEqual({
      key: null,
      calls: 3,
      answered: 2,
      answerRate: 2 / 3,
      averageDurationSeconds: 45,
      cost: 0.75,
      latencyMedianMs: withinLatencyError(250),
      latencyP90Ms: withinLatencyError(370),
      outcomes: [
        { outcome: 'COMPLETED', calls: 2 },
        { outcome: 'BUSY', calls: 1 },
      ],
    });
  });

  it('reads days in the time zone asked for', async () => {
    const found = await analytics({ groupBy: 'DAY', timeZone: 'America/New_York' });
    expect(found.rows.map((r: any) => [r.key, r.calls])).toEqual([['2026-03-01', 3]]);
  });

  it('groups by campaign (calls without one last), agent and outcome', async () => {
    const byCampaign = await analytics({ groupBy: 'CAMPAIGN' });
    expect(byCampaign.rows.map((r: any) => [r.key, r.calls, r.latencyMedianMs])).toEqual([
      [a.campaign.id, 2, withinLatencyError(200)],
      [null, 1, withinLatencyError(400)],
    ]);
    const byAgent = await analytics({ groupBy: 'AGENT' });
    expect(byAgent.rows.map((r: any) => [r.key, r.calls])).toEqual([[a.agent.id, 3]]);
    const byOutcome = await analytics({ groupBy: 'OUTCOME' });
    expect(byOutcome.rows.map((r: any) => [r.key, r.calls, r.answerRate])).toEqual([
      ['busy', 1, 0],
      ['completed', 2, 1],
    ]);
  });

  it("counts only the caller's company, and answers zeros for a range without calls", async () => {
    const theirs = await analytics({ groupBy: 'CAMPAIGN' }, b.key);
    expect(theirs.total).toMatchObject({ calls: 1, answered: 0, cost: 7, averageDurationSeconds: null, latencyMedianMs: null, outcomes: [{ outcome: 'NO_ANSWER', calls: 1 }] });
    const empty = await analytics({ groupBy: 'DAY', from: '2025-01-01T00:00:00Z', to: '2025-01-02T00:00:00Z' });
    expect(empty.rows).toEqual([]);
    expect(empty.total).toEqual({ key: null, calls: 0, answered: 0, answerRate: 0, averageDurationSeconds: null, cost: 0, latencyMedianMs: null, latencyP90Ms: null, outcomes: [] });
  });

  it('refuses a range over 366 days, backwards or unreadable, and an unknown time zone, with the field named', async () => {
    const refused = async (vars: Record<string, unknown>) => firstError(await gql(t, QUERY, { ...range, groupBy: 'DAY', ...vars }, a.key));
    expect(await refused({ from: '2025-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z' })).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'to', message: 'Must be at most 366 days after from' }] });
    expect(await refused({ to: range.from })).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'to', message: 'Must be after from' }] });
    expect(await refused({ from: 'yesterday' })).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'from' }] });
    expect(await refused({ timeZone: 'Mars/Olympus' })).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'timeZone' }] });
    expect(firstError(await gql(t, QUERY, { ...range, groupBy: 'DAY' }, null))).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
