import type { EntityManager } from '@mikro-orm/postgresql';
import { CALL_STATUSES, type CallStatus } from '../../entities/call.entity';
import type { AnalyticsGroup, AnalyticsQuery } from './analytics.input';

/** Each group's key over calls `c`, as text; `?` is the time zone a day is read in. */
const GROUP_KEY: Record<AnalyticsGroup, string> = {
  day: `to_char(c.created_at AT TIME ZONE ?::text, 'YYYY-MM-DD')`,
  campaign: 'c.campaign_id::text',
  agent: 'c.ai_agent_id::text',
  outcome: 'c.call_status',
};

/**
 * The company's calls of the range `k`, each with its group key `g`: served by the calls'
 * (company_id, created_at, id) index. Parameters: the time zone (day groups only), the
 * company, from, to.
 */
function ranged(q: AnalyticsQuery, companyId: string): { sql: string; params: unknown[] } {
  return {
    sql: `(SELECT c.*, ${GROUP_KEY[q.groupBy]} AS g FROM calls c
           WHERE c.company_id = ? AND c.deleted_at IS NULL AND c.created_at >= ? AND c.created_at < ?) k`,
    params: [...(q.groupBy === 'day' ? [q.timeZone] : []), companyId, q.from, q.to],
  };
}

/** One group's sums, or the whole range's (`total`). */
export interface AnalyticsSums {
  key: string | null;
  total: boolean;
  calls: number;
  answered: number;
  averageDurationSeconds: number | null;
  cost: number;
  outcomes: Partial<Record<CallStatus, number>>;
}

/** The groups' latency percentiles, or the whole range's (`total`). */
export interface AnalyticsLatency {
  key: string | null;
  total: boolean;
  medianMs: number;
  p90Ms: number;
}

/** A row of `analyticsSums`: the group (null: the whole range) and its figures, `s<i>` the calls of CALL_STATUSES[i]. */
type SumsRow = { g: string | null; total: boolean; calls: number; answered: number; average_duration: number | null; cost: number } & Record<`s${number}`, number>;

/** A row of `analyticsLatency`. */
interface LatencyRow {
  g: string | null;
  total: boolean;
  median: number;
  p90: number;
}

/**
 * Per group and for the whole range (GROUPING SETS), in one statement: calls, answered
 * calls (`started_at` stamped), their mean duration, the cost, and the calls by status.
 */
export async function analyticsSums(em: EntityManager, q: AnalyticsQuery, companyId: string): Promise<AnalyticsSums[]> {
  const from = ranged(q, companyId);
  const byStatus = CALL_STATUSES.map((status, i) => `count(*) FILTER (WHERE k.call_status = '${status}')::int AS s${i}`).join(', ');
  const rows = await em.execute<SumsRow[]>(
    `SELECT k.g, GROUPING(k.g) = 1 AS total, count(*)::int AS calls,
            count(*) FILTER (WHERE k.started_at IS NOT NULL)::int AS answered,
            (avg(k.call_duration) FILTER (WHERE k.started_at IS NOT NULL))::float8 AS average_duration,
            COALESCE(sum(k.cost), 0)::float8 AS cost, ${byStatus}
     FROM ${from.sql}
     GROUP BY GROUPING SETS ((k.g), ())
     ORDER BY total, k.g NULLS LAST`,
    from.params,
  );
  return rows.map((r) => ({
    key: r.g,
    total: r.total,
    calls: r.calls,
    answered: r.answered,
    averageDurationSeconds: r.average_duration,
    cost: r.cost,
    outcomes: Object.fromEntries(CALL_STATUSES.map((status, i) => [status, r[`s${i}`]])),
  }));
}

/**
 * Median and 90th percentile (percentile_cont) of the agent's answer latency per group and
 * for the whole range, in one statement: every turn of the calls' transcripts that
 * measured one (`latency_ms`, written by the conversation engine turn by turn).
 */
export async function analyticsLatency(em: EntityManager, q: AnalyticsQuery, companyId: string): Promise<AnalyticsLatency[]> {
  const from = ranged(q, companyId);
  const rows = await em.execute<LatencyRow[]>(
    `SELECT k.g, GROUPING(k.g) = 1 AS total,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY (t.turn ->> 'latency_ms')::float8) AS median,
            percentile_cont(0.9) WITHIN GROUP (ORDER BY (t.turn ->> 'latency_ms')::float8) AS p90
     FROM ${from.sql}
     CROSS JOIN LATERAL jsonb_array_elements(
       CASE WHEN jsonb_typeof(k.transcript_object -> 'turns') = 'array' THEN k.transcript_object -> 'turns' ELSE '[]'::jsonb END
     ) AS t(turn)
     WHERE jsonb_typeof(t.turn -> 'latency_ms') = 'number'
     GROUP BY GROUPING SETS ((k.g), ())`,
    from.params,
  );
  return rows.map((r) => ({ key: r.g, total: r.total, medianMs: r.median, p90Ms: r.p90 }));
}
