import type { EntityManager } from '@mikro-orm/postgresql';
import { CALL_ROLLUP_DIRTY_TABLE, CALL_ROLLUPS_TABLE } from '../../db/tables';
import { CALL_STATUSES, type CallStatus } from '../../entities/call.entity';
import type { AnalyticsGroup, AnalyticsQuery } from './analytics.input';
import { latencyKey, type LatencyHistogram } from './latency-histogram';

/**
 * The analytics rollups (docs/analytics.md, "Rollups"): a company's call figures per
 * 15-minute bucket (`call_rollups`, Migration20261128010000_call_rollups), for the whole
 * company and per campaign, agent and outcome, folded from the calls of the buckets that
 * triggers on `calls` marked dirty (`call_rollup_dirty`).
 */

/** A bucket's length: every time zone's day starts on one of its boundaries (UTC offsets are multiples of 15 minutes). */
const BUCKET_MS = 15 * 60 * 1000;

/** The 15-minute bucket of an instant (SQL), UTC-aligned, as the dirty-marking triggers compute it. */
const bucketOf = (at: string) => `date_bin('15 minutes', ${at}, timestamptz '2000-01-01 00:00:00+00')`;

/** What rollups are kept by: the whole company (`all`), or a campaign, an agent, an outcome. */
type RollupDim = 'all' | Exclude<AnalyticsGroup, 'day'>;

/** Each dimension's key over calls `c`: '' where there is none (the whole company, a call without a campaign). */
const DIM_KEY: Record<RollupDim, string> = {
  all: `''`,
  campaign: `COALESCE(c.campaign_id::text, '')`,
  agent: 'c.ai_agent_id::text',
  outcome: 'c.call_status',
};
const DIMS = Object.keys(DIM_KEY) as RollupDim[];

/** The calls' columns the figures read, as a source of calls `src` selects them. */
const CALL_COLUMNS = 'c.company_id, c.created_at, c.call_status, c.started_at, c.call_duration, c.cost, c.campaign_id, c.ai_agent_id, c.transcript_object';

/** A rollup's columns, as stored and as `rollupsOf` computes them. */
const ROLLUP_COLUMNS = 'company_id, dim, bucket, key, calls, answered, duration_sum, duration_count, cost, statuses, hist_keys, hist_counts';

/**
 * The rollups of the calls of `src` (a CTE of CALL_COLUMNS, defined before) for `dims`, as CTEs
 * ending with `rollups` (ROLLUP_COLUMNS): per bucket and key, the calls, the answered ones
 * (`started_at` stamped), the sum and count of their durations, the cost, the calls by status
 * (CALL_STATUSES order), and the histogram of the agent turns' `latency_ms`.
 */
function rollupsOf(dims: readonly RollupDim[]): string {
  const keys = `CROSS JOIN LATERAL (VALUES ${dims.map((dim) => `('${dim}', ${DIM_KEY[dim]})`).join(', ')}) d(dim, key)`;
  const statuses = CALL_STATUSES.map((status) => `count(*) FILTER (WHERE c.call_status = '${status}')::int`).join(', ');
  return `figures AS (
      SELECT c.company_id, d.dim, ${bucketOf('c.created_at')} AS bucket, d.key, count(*)::int AS calls,
             count(*) FILTER (WHERE c.started_at IS NOT NULL)::int AS answered,
             COALESCE(sum(c.call_duration) FILTER (WHERE c.started_at IS NOT NULL), 0)::bigint AS duration_sum,
             count(c.call_duration) FILTER (WHERE c.started_at IS NOT NULL)::int AS duration_count,
             COALESCE(sum(c.cost), 0) AS cost, ARRAY[${statuses}] AS statuses
      FROM src c ${keys}
      GROUP BY 1, 2, 3, 4
    ),
    turns AS (
      SELECT c.company_id, d.dim, ${bucketOf('c.created_at')} AS bucket, d.key, ${latencyKey(`(t.turn ->> 'latency_ms')::float8`)} AS k, count(*)::int AS n
      FROM src c
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(c.transcript_object -> 'turns') = 'array' THEN c.transcript_object -> 'turns' ELSE '[]'::jsonb END
      ) AS t(turn)
      ${keys}
      WHERE jsonb_typeof(t.turn -> 'latency_ms') = 'number'
      GROUP BY 1, 2, 3, 4, 5
    ),
    hists AS (
      SELECT company_id, dim, bucket, key, array_agg(k ORDER BY k) AS hist_keys, array_agg(n ORDER BY k) AS hist_counts FROM turns GROUP BY 1, 2, 3, 4
    ),
    rollups AS (
      SELECT f.*, COALESCE(h.hist_keys, '{}') AS hist_keys, COALESCE(h.hist_counts, '{}') AS hist_counts
      FROM figures f LEFT JOIN hists h USING (company_id, dim, bucket, key)
    )`;
}

/**
 * The live calls (CALL_COLUMNS) of the buckets `buckets` selects (`company_id`, `bucket`): a
 * range scan of the calls' (company_id, created_at) index per bucket. Joined plainly, or
 * LATERAL without the `OFFSET 0` that keeps it a subquery run per bucket, PostgreSQL hashed the
 * whole calls table against the buckets (a sequential scan of millions of calls per fold).
 */
const callsOf = (buckets: string) =>
  `SELECT c.* FROM ${buckets} p CROSS JOIN LATERAL (
     SELECT ${CALL_COLUMNS} FROM calls c
     WHERE c.company_id = p.company_id AND c.deleted_at IS NULL AND c.created_at >= p.bucket AND c.created_at < p.bucket + interval '15 minutes'
     OFFSET 0
   ) c`;

/**
 * Set in the transactions of the fold and the query: PostgreSQL's estimates of the buckets'
 * calls (a range between two column values) are far too high, and compiling their statements
 * (JIT) cost 20 to 100 times their run (0.5 s for a query of 10 ms, 2.4 s for a fold of 200
 * buckets that took 0.9 s).
 */
const NO_JIT = 'SET LOCAL jit = off';

/** A (company, bucket) whose rollups a fold recomputed. */
interface Bucket {
  company_id: string;
  bucket: Date;
}

/**
 * Folds up to `limit` dirty buckets (any company's) into their rollups, in the transaction
 * open on `tx`: takes their dirty marks, then recomputes their rollups from their calls (a
 * 15-minute range of one company's calls each). A call changed after the marks were taken
 * left a mark of its own, so its bucket is folded again. Answers how many buckets it folded.
 */
export async function foldDirtyBuckets(tx: EntityManager, limit: number): Promise<number> {
  await tx.execute(NO_JIT);
  const folded = await tx.execute<Bucket[]>(
    `WITH picked AS (SELECT DISTINCT company_id, bucket FROM ${CALL_ROLLUP_DIRTY_TABLE} ORDER BY company_id, bucket LIMIT ?),
          cleared AS (DELETE FROM ${CALL_ROLLUP_DIRTY_TABLE} d USING picked p WHERE d.company_id = p.company_id AND d.bucket = p.bucket)
     SELECT company_id, bucket FROM picked`,
    [limit],
  );
  if (folded.length === 0) return 0;
  const picked = `(SELECT * FROM jsonb_to_recordset(?::jsonb) AS p(company_id uuid, bucket timestamptz))`;
  const buckets = JSON.stringify(folded);
  await tx.execute(`DELETE FROM ${CALL_ROLLUPS_TABLE} r USING ${picked} p WHERE r.company_id = p.company_id AND r.bucket = p.bucket`, [buckets]);
  await tx.execute(
    `INSERT INTO ${CALL_ROLLUPS_TABLE} (${ROLLUP_COLUMNS})
     WITH src AS (
       ${callsOf(picked)}
     ), ${rollupsOf(DIMS)}
     SELECT ${ROLLUP_COLUMNS} FROM rollups`,
    [buckets],
  );
  return folded.length;
}

/** One group's figures, or the whole range's (`total`). */
export interface AnalyticsFigures {
  key: string | null;
  total: boolean;
  calls: number;
  answered: number;
  averageDurationSeconds: number | null;
  cost: number;
  outcomes: Partial<Record<CallStatus, number>>;
  latencies: LatencyHistogram;
}

/** A row of `analyticsFigures`, `s<i>` the calls of CALL_STATUSES[i]. */
type FiguresRow = {
  g: string | null;
  total: boolean;
  calls: number;
  answered: number;
  average_duration: number | null;
  cost: number;
  hist_keys: number[] | null;
  hist_counts: number[] | null;
} & Record<`s${number}`, number>;

/**
 * Where a query's range reads rollups and where the calls: the whole buckets `[lo, hi)`
 * (empty when the range holds none), and the partial ones at each end read from the calls.
 */
function split(q: AnalyticsQuery): { lo: Date; hi: Date; head: [Date, Date]; tail: [Date, Date] } {
  const from = q.from.getTime();
  const to = q.to.getTime();
  let lo = Math.ceil(from / BUCKET_MS) * BUCKET_MS;
  let hi = Math.floor(to / BUCKET_MS) * BUCKET_MS;
  // A range inside one bucket: all of it is the head.
  if (lo > hi) lo = hi = to;
  return { lo: new Date(lo), hi: new Date(hi), head: [q.from, new Date(lo)], tail: [new Date(hi), q.to] };
}

/**
 * How a query's rows (`parts`: ROLLUP_COLUMNS but the company) become its groups: the group
 * `g` and whether the row is the whole range's (`total`), and the GROUP BY of the sums and of
 * the histograms' keys. Days are the rollups of the whole company by the day their bucket
 * starts in the time zone (a bucket lies in one day of every zone), their total the grouping
 * set (); the other groups are their dimension's rollups, their total the whole company's.
 */
function grouping(q: AnalyticsQuery): { dims: RollupDim[]; keyed: string; params: unknown[]; sums: string; hist: string } {
  if (q.groupBy === 'day') {
    return {
      dims: ['all'],
      keyed: `SELECT to_char(p.bucket AT TIME ZONE ?::text, 'YYYY-MM-DD') AS g, p.* FROM parts p`,
      params: [q.timeZone],
      sums: 'g, GROUPING(g) = 1 AS total FROM keyed GROUP BY GROUPING SETS ((g), ())',
      hist: 'g, GROUPING(g) = 1 AS total, h.k, sum(h.n)::int AS n FROM keyed CROSS JOIN LATERAL unnest(hist_keys, hist_counts) h(k, n) GROUP BY GROUPING SETS ((g, h.k), (h.k))',
    };
  }
  return {
    dims: [q.groupBy, 'all'],
    keyed: `SELECT CASE WHEN p.dim = 'all' THEN NULL ELSE NULLIF(p.key, '') END AS g, p.dim = 'all' AS total, p.* FROM parts p`,
    params: [],
    sums: 'g, total FROM keyed GROUP BY g, total',
    hist: 'g, total, h.k, sum(h.n)::int AS n FROM keyed CROSS JOIN LATERAL unnest(hist_keys, hist_counts) h(k, n) GROUP BY g, total, h.k',
  };
}

/**
 * Per group and for the whole range, in one statement (one snapshot): calls, answered calls,
 * their mean duration, the cost, the calls by status, and the histogram of the agent turns'
 * latencies. The range's whole buckets are read from their rollups, but for those marked
 * dirty (changed since folded), which are computed from their calls, as are the partial
 * buckets at each end: the sums are exact to the moment. The range's total is absent when it
 * holds no call.
 */
export async function analyticsFigures(em: EntityManager, q: AnalyticsQuery, companyId: string): Promise<AnalyticsFigures[]> {
  const { lo, hi, head, tail } = split(q);
  const by = grouping(q);
  const dims = by.dims.map((dim) => `'${dim}'`).join(', ');
  const statuses = CALL_STATUSES.map((_, i) => `COALESCE(sum(statuses[${i + 1}]), 0)::int AS s${i}`).join(', ');
  const rows = await em.transactional(async (tx) => {
    await tx.execute(NO_JIT);
    return tx.execute<FiguresRow[]>(
      `WITH src AS (
       SELECT ${CALL_COLUMNS} FROM calls c
       WHERE c.company_id = ? AND c.deleted_at IS NULL AND ((c.created_at >= ? AND c.created_at < ?) OR (c.created_at >= ? AND c.created_at < ?))
       UNION ALL
       ${callsOf(`(SELECT DISTINCT company_id, bucket FROM ${CALL_ROLLUP_DIRTY_TABLE} WHERE company_id = ? AND bucket >= ? AND bucket < ?)`)}
     ), ${rollupsOf(by.dims)},
     parts AS (
       SELECT r.dim, r.bucket, r.key, r.calls, r.answered, r.duration_sum, r.duration_count, r.cost, r.statuses, r.hist_keys, r.hist_counts
       FROM ${CALL_ROLLUPS_TABLE} r
       WHERE r.company_id = ? AND r.dim IN (${dims}) AND r.bucket >= ? AND r.bucket < ?
         AND NOT EXISTS (SELECT 1 FROM ${CALL_ROLLUP_DIRTY_TABLE} d WHERE d.company_id = r.company_id AND d.bucket = r.bucket)
       UNION ALL
       SELECT dim, bucket, key, calls, answered, duration_sum, duration_count, cost, statuses, hist_keys, hist_counts FROM rollups
     ),
     keyed AS (${by.keyed}),
     sums AS (
       SELECT COALESCE(sum(calls), 0)::int AS calls, COALESCE(sum(answered), 0)::int AS answered,
              (sum(duration_sum)::float8 / NULLIF(sum(duration_count), 0)) AS average_duration,
              COALESCE(sum(cost), 0)::float8 AS cost, ${statuses}, ${by.sums}
     ),
     group_turns AS (SELECT ${by.hist}),
     group_hists AS (SELECT g, total, array_agg(k ORDER BY k) AS hist_keys, array_agg(n ORDER BY k) AS hist_counts FROM group_turns GROUP BY g, total)
     SELECT s.*, h.hist_keys, h.hist_counts FROM sums s LEFT JOIN group_hists h ON h.total = s.total AND h.g IS NOT DISTINCT FROM s.g
     ORDER BY s.total, s.g NULLS LAST`,
      [companyId, ...head, ...tail, companyId, lo, hi, companyId, lo, hi, ...by.params],
    );
  });
  return rows.map((r) => ({
    key: r.g,
    total: r.total,
    calls: r.calls,
    answered: r.answered,
    averageDurationSeconds: r.average_duration,
    cost: r.cost,
    outcomes: Object.fromEntries(CALL_STATUSES.map((status, i) => [status, r[`s${i}`]])),
    latencies: { keys: r.hist_keys ?? [], counts: r.hist_counts ?? [] },
  }));
}
