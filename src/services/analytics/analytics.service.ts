import type { Caller } from '../shared/scope';
import { parseInput } from '../shared/validation';
import type { AnalyticsRowView, AnalyticsView } from './analytics.contract';
import { type AnalyticsInput, analyticsInput } from './analytics.input';
import { type AnalyticsLatency, analyticsLatency, type AnalyticsSums, analyticsSums } from './analytics.store';

/** A group's row: its sums with its latency percentiles (null when no turn of it measured one). */
function rowOf(sums: AnalyticsSums, latency: AnalyticsLatency | undefined): AnalyticsRowView {
  const outcomes = Object.entries(sums.outcomes)
    .filter(([, calls]) => calls > 0)
    .map(([outcome, calls]) => ({ outcome: outcome as AnalyticsRowView['outcomes'][number]['outcome'], calls }))
    .sort((a, b) => b.calls - a.calls);
  return {
    key: sums.key,
    calls: sums.calls,
    answered: sums.answered,
    answerRate: sums.calls === 0 ? 0 : sums.answered / sums.calls,
    averageDurationSeconds: sums.averageDurationSeconds,
    cost: sums.cost,
    latencyMedianMs: latency?.medianMs ?? null,
    latencyP90Ms: latency?.p90Ms ?? null,
    outcomes,
  };
}

/** A company's call figures over a range of time, computed in PostgreSQL (docs/analytics.md). */
export class AnalyticsService {
  /** Calls of the caller's company from `from` to `to`, grouped as `groupBy` says, and the whole range's figures. */
  async analytics({ scope, em }: Caller, input: AnalyticsInput): Promise<AnalyticsView> {
    const query = parseInput(analyticsInput, input);
    const [sums, latencies] = [await analyticsSums(em, query, scope.companyId), await analyticsLatency(em, query, scope.companyId)];
    const latencyOf = (s: AnalyticsSums) => latencies.find((l) => l.total === s.total && l.key === s.key);
    // The empty grouping set answers a row even when the range holds no call.
    const total = sums.find((s) => s.total)!;
    return {
      from: query.from,
      to: query.to,
      groupBy: query.groupBy,
      timeZone: query.timeZone,
      total: rowOf(total, latencyOf(total)),
      rows: sums.filter((s) => !s.total).map((s) => rowOf(s, latencyOf(s))),
    };
  }
}
