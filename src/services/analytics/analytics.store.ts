import type { EntityManager } from '@mikro-orm/postgresql';
import { CALL_ROLLUP_DAYS_TABLE, CALL_ROLLUP_DIRTY_TABLE, CALL_ROLLUPS_TABLE } from '../../db/tables';
import { CALL_STATUSES, type CallStatus } from '../../entities/call.entity';
import type { AnalyticsGroup, AnalyticsQuery } from './analytics.input';
import { latencyKey, type LatencyHistogram } from './latency-histogram';

/**
 * The analytics rollups (docs/analytics.md, "Rollups"): a company's call figures per
 * 15-minute bucket (`call_rollups`, Migration20261128010000_call_rollups), for the whole
 * company and per campaign, agent and outcome, folded from the calls of the buckets that
 * triggers on `calls` marked dirty (`call_rollup_dirty`); and per UTC day (`call_rollup_days`,
 * Migration20261129010000_call_rollup_days), the sums of the day's buckets, written by the
 * same fold.
 */

/** A bucket's length: every time zone's day starts on one of its boundaries (UTC offsets are multiples of 15 minutes). */
const BUCKET_MS = 15 * 60 * 1000;

/** A day rollup's length: a UTC day, 96 buckets. */
const DAY_MS = 24 * 60 * 60 * 1000;

/** The 15-minute bucket of an instant (SQL), UTC-aligned, as the dirty-marking triggers compute it. */
const bucketOf = (at: string) => `date_bin('15 minutes', ${at}, timestamptz '2000-01-01 00:00:00+00')`;

/** The UTC day of a bucket (SQL), as the day rollups' trigger computes it. */
const dayOf = (bucket: string) => `date_bin('24 hours', ${bucket}, timestamptz '2000-01-01 00:00:00+00')`;

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

/** Every dimension (SQL list), for conditions on the rollups' primary key (company, dimension, bucket or day, key). */
const ALL_DIMS = DIMS.map((dim) => `'${dim}'`).join(', ');

/** The calls' columns the figures read, as a source of calls `src` selects them. */
const CALL_COLUMNS = 'c.company_id, c.created_at, c.call_status, c.started_at, c.call_duration, c.cost, c.campaign_id, c.ai_agent_id, c.transcript_object';

/** A rollup's columns, as stored and as `rollupsOf` computes them. */
const ROLLUP_COLUMNS = 'company_id, dim, bucket, key, calls, answered, duration_sum, duration_count, cost, statuses, hist_keys, hist_counts';

/** The figures of a rollup, a 15-minute one's or a day's, as columns of `alias`. */
const figureColumns = (alias: string) => ['calls', 'answered', 'duration_sum', 'duration_count', 'cost', 'statuses', 'hist_keys', 'hist_counts'].map((column) => `${alias}.${column}`).join(', ');

/** The sums of rollups' calls by status (SQL), one per status of CALL_STATUSES, as `rollupsOf` lays them out. */
const STATUS_SUMS = CALL_STATUSES.map((_, i) => `COALESCE(sum(statuses[${i + 1}]), 0)::int`);

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
  // Every dimension named: the primary key's index then reaches each bucket's rows (without, PostgreSQL read the whole table).
  await tx.execute(`DELETE FROM ${CALL_ROLLUPS_TABLE} r USING ${picked} p WHERE r.company_id = p.company_id AND r.dim IN (${ALL_DIMS}) AND r.bucket = p.bucket`, [buckets]);
  await tx.execute(
    `INSERT INTO ${CALL_ROLLUPS_TABLE} (${ROLLUP_COLUMNS})
     WITH src AS (
       ${callsOf(picked)}
     ), ${rollupsOf(DIMS)}
     SELECT ${ROLLUP_COLUMNS} FROM rollups`,
    [buckets],
  );
  // Writing the buckets' rollups deleted their days' (the triggers of Migration20261129010000_call_rollup_days).
  // Only days that have ended get rows: a day under way lies in no range as a whole day that
  // has ended, and its buckets change all day. The day before, which no later change may
  // mark, is written by the first fold of its company after it ends.
  await tx.execute(
    `INSERT INTO ${CALL_ROLLUP_DAYS_TABLE} (company_id, dim, day, key, calls, answered, duration_sum, duration_count, cost, statuses, hist_keys, hist_counts)
     WITH days AS (
       SELECT d.company_id, d.day FROM (
         SELECT p.company_id, ${dayOf('p.bucket')} AS day FROM ${picked} p
         UNION
         SELECT p.company_id, ${dayOf('now()')} - interval '24 hours' FROM ${picked} p
       ) d
       WHERE d.day + interval '24 hours' <= now()
         AND NOT EXISTS (SELECT 1 FROM ${CALL_ROLLUP_DAYS_TABLE} r WHERE r.company_id = d.company_id AND r.dim = 'all' AND r.day = d.day AND r.key = '')
     ),
     buckets AS (
       SELECT d.day, r.* FROM days d CROSS JOIN LATERAL (
         SELECT ${ROLLUP_COLUMNS} FROM ${CALL_ROLLUPS_TABLE} r
         WHERE r.company_id = d.company_id AND r.dim IN (${ALL_DIMS}) AND r.bucket >= d.day AND r.bucket < d.day + interval '24 hours'
         OFFSET 0
       ) r
     ),
     sums AS (
       SELECT company_id, dim, day, key, sum(calls)::int AS calls, sum(answered)::int AS answered, sum(duration_sum)::bigint AS duration_sum,
              sum(duration_count)::int AS duration_count, sum(cost) AS cost, ARRAY[${STATUS_SUMS.join(', ')}] AS statuses
       FROM buckets GROUP BY 1, 2, 3, 4
     ),
     hists AS (
       SELECT company_id, dim, day, key, array_agg(k ORDER BY k) AS hist_keys, array_agg(n ORDER BY k) AS hist_counts
       FROM (SELECT b.company_id, b.dim, b.day, b.key, h.k, sum(h.n)::int AS n FROM buckets b CROSS JOIN LATERAL unnest(b.hist_keys, b.hist_counts) h(k, n) GROUP BY 1, 2, 3, 4, 5) h
       GROUP BY 1, 2, 3, 4
     )
     SELECT s.company_id, s.dim, s.day, s.key, s.calls, s.answered, s.duration_sum, s.duration_count, s.cost, s.statuses,
            COALESCE(h.hist_keys, '{}'), COALESCE(h.hist_counts, '{}')
     FROM sums s LEFT JOIN hists h USING (company_id, dim, day, key)`,
    [buckets, buckets],
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
 * (empty when the range holds none), the whole UTC days among them `[dayLo, dayHi)` (empty,
 * at `hi`, when they hold none), and the partial buckets at each end read from the calls.
 */
function split(q: AnalyticsQuery): { lo: Date; hi: Date; dayLo: Date; dayHi: Date; head: [Date, Date]; tail: [Date, Date] } {
  const from = q.from.getTime();
  const to = q.to.getTime();
  let lo = Math.ceil(from / BUCKET_MS) * BUCKET_MS;
  let hi = Math.floor(to / BUCKET_MS) * BUCKET_MS;
  // A range inside one bucket: all of it is the head.
  if (lo > hi) lo = hi = to;
  let dayLo = Math.ceil(lo / DAY_MS) * DAY_MS;
  let dayHi = Math.floor(hi / DAY_MS) * DAY_MS;
  if (dayLo >= dayHi) dayLo = dayHi = hi;
  return { lo: new Date(lo), hi: new Date(hi), dayLo: new Date(dayLo), dayHi: new Date(dayHi), head: [q.from, new Date(lo)], tail: [new Date(hi), q.to] };
}

/** The parts' histograms merged key by key (SQL select list and FROM): to be grouped by the key `h.k` and the group. */
const MERGED = 'h.k, sum(h.n)::int AS n FROM keyed CROSS JOIN LATERAL unnest(hist_keys, hist_counts) h(k, n)';

/**
 * How a query's rows (`parts`: a dimension, a bucket or a day's start, a key and their figures)
 * become its groups: the group `g` and whether the row is the whole range's (`total`), the
 * GROUP BY of the sums, the CTEs ending in `group_turns` (each group's histogram, key by key)
 * and which UTC days `d.day` a day rollup may serve (`wholeDay`, a condition and its values). Days are the rollups of the
 * whole company by the day their bucket starts in the time zone (a bucket lies in one day of
 * every zone), their total the sum of the days; a UTC day serves them only when its first and
 * last buckets start on the same day of the zone (a zone then at UTC's offset). The other
 * groups are their dimension's rollups, their total the whole company's, any day serving them.
 */
function grouping(q: AnalyticsQuery): { dims: RollupDim[]; keyed: string; params: unknown[]; wholeDay: { sql: string; params: unknown[] }; sums: string; turns: string } {
  if (q.groupBy === 'day') {
    const dayIn = (at: string) => `to_char((${at}) AT TIME ZONE ?::text, 'YYYY-MM-DD')`;
    return {
      dims: ['all'],
      keyed: `SELECT ${dayIn('p.bucket')} AS g, p.* FROM parts p`,
      params: [q.timeZone],
      wholeDay: { sql: `${dayIn('d.day')} = ${dayIn(`d.day + interval '${(DAY_MS - BUCKET_MS) / 60_000} minutes'`)}`, params: [q.timeZone, q.timeZone] },
      sums: 'g, GROUPING(g) = 1 AS total FROM keyed GROUP BY GROUPING SETS ((g), ())',
      // The total's histogram from the days' (a few thousand keys), not from the parts' again (a grouping set () over every key of every part).
      turns: `day_turns AS (SELECT g, ${MERGED} GROUP BY g, h.k),
        group_turns AS (SELECT g, false AS total, k, n FROM day_turns UNION ALL SELECT NULL, true, k, sum(n)::int FROM day_turns GROUP BY k)`,
    };
  }
  return {
    dims: [q.groupBy, 'all'],
    keyed: `SELECT CASE WHEN p.dim = 'all' THEN NULL ELSE NULLIF(p.key, '') END AS g, p.dim = 'all' AS total, p.* FROM parts p`,
    params: [],
    wholeDay: { sql: 'true', params: [] },
    sums: 'g, total FROM keyed GROUP BY g, total',
    turns: `group_turns AS (SELECT g, total, ${MERGED} GROUP BY g, total, h.k)`,
  };
}

/**
 * Per group and for the whole range, in one statement (one snapshot): calls, answered calls,
 * their mean duration, the cost, the calls by status, and the histogram of the agent turns'
 * latencies. The range's whole UTC days are read from their day rollups where the grouping
 * allows (`grouping`), the day is folded (its row of the whole company is there) and none of
 * its buckets is marked dirty; its other whole buckets from their 15-minute rollups, but for
 * those marked dirty (changed since folded), which are computed from their calls, as are the
 * partial buckets at each end: the sums are exact to the moment. The range's total is absent
 * when it holds no call.
 */
export async function analyticsFigures(em: EntityManager, q: AnalyticsQuery, companyId: string): Promise<AnalyticsFigures[]> {
  const { lo, hi, dayLo, dayHi, head, tail } = split(q);
  const by = grouping(q);
  const dims = by.dims.map((dim) => `'${dim}'`).join(', ');
  const dayRange = `generate_series(?::timestamptz, ?::timestamptz - interval '24 hours', interval '24 hours')`;
  const rows = await em.transactional(async (tx) => {
    await tx.execute(NO_JIT);
    return tx.execute<FiguresRow[]>(
      `WITH src AS (
       SELECT ${CALL_COLUMNS} FROM calls c
       WHERE c.company_id = ? AND c.deleted_at IS NULL AND ((c.created_at >= ? AND c.created_at < ?) OR (c.created_at >= ? AND c.created_at < ?))
       UNION ALL
       ${callsOf(`(SELECT DISTINCT company_id, bucket FROM ${CALL_ROLLUP_DIRTY_TABLE} WHERE company_id = ? AND bucket >= ? AND bucket < ?)`)}
     ), ${rollupsOf(by.dims)},
     days AS (
       SELECT d.day FROM ${dayRange} d(day)
       WHERE ${by.wholeDay.sql}
         AND EXISTS (SELECT 1 FROM ${CALL_ROLLUP_DAYS_TABLE} r WHERE r.company_id = ? AND r.dim = 'all' AND r.day = d.day AND r.key = '')
         AND NOT EXISTS (SELECT 1 FROM ${CALL_ROLLUP_DIRTY_TABLE} x WHERE x.company_id = ? AND x.bucket >= d.day AND x.bucket < d.day + interval '24 hours')
     ),
     spans AS (
       SELECT * FROM (VALUES (?::timestamptz, ?::timestamptz), (?::timestamptz, ?::timestamptz)) s(lo, hi) WHERE s.lo < s.hi
       UNION ALL
       SELECT d.day, d.day + interval '24 hours' FROM ${dayRange} d(day) WHERE d.day NOT IN (SELECT day FROM days)
     ),
     parts AS (
       SELECT r.dim, r.day AS bucket, r.key, ${figureColumns('r')}
       FROM ${CALL_ROLLUP_DAYS_TABLE} r
       WHERE r.company_id = ? AND r.dim IN (${dims}) AND r.day >= ? AND r.day < ? AND r.day IN (SELECT day FROM days)
       UNION ALL
       SELECT r.* FROM spans s CROSS JOIN LATERAL (
         SELECT r.dim, r.bucket, r.key, ${figureColumns('r')} FROM ${CALL_ROLLUPS_TABLE} r
         WHERE r.company_id = ? AND r.dim IN (${dims}) AND r.bucket >= s.lo AND r.bucket < s.hi
           AND NOT EXISTS (SELECT 1 FROM ${CALL_ROLLUP_DIRTY_TABLE} x WHERE x.company_id = r.company_id AND x.bucket = r.bucket)
       ) r
       UNION ALL
       SELECT r.dim, r.bucket, r.key, ${figureColumns('r')} FROM rollups r
     ),
     keyed AS (${by.keyed}),
     sums AS (
       SELECT COALESCE(sum(calls), 0)::int AS calls, COALESCE(sum(answered), 0)::int AS answered,
              (sum(duration_sum)::float8 / NULLIF(sum(duration_count), 0)) AS average_duration,
              COALESCE(sum(cost), 0)::float8 AS cost, ${STATUS_SUMS.map((sum, i) => `${sum} AS s${i}`).join(', ')}, ${by.sums}
     ),
     ${by.turns},
     group_hists AS (SELECT g, total, array_agg(k ORDER BY k) AS hist_keys, array_agg(n ORDER BY k) AS hist_counts FROM group_turns GROUP BY g, total)
     SELECT s.*, h.hist_keys, h.hist_counts FROM sums s LEFT JOIN group_hists h ON h.total = s.total AND h.g IS NOT DISTINCT FROM s.g
     ORDER BY s.total, s.g NULLS LAST`,
      [
        ...[companyId, ...head, ...tail, companyId, lo, hi],
        ...[dayLo, dayHi, ...by.wholeDay.params, companyId, companyId],
        ...[lo, dayLo, dayHi, hi, dayLo, dayHi],
        ...[companyId, dayLo, dayHi],
        companyId,
        ...by.params,
      ],
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
