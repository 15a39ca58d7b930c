import type { EntityManager } from '@mikro-orm/postgresql';
import { tryLockUntilCommit } from '../platform/advisory-lock.store';
import type { Caller } from '../shared/scope';
import { parseInput } from '../shared/validation';
import type { AnalyticsRowView, AnalyticsView } from './analytics.contract';
import { type AnalyticsInput, analyticsInput } from './analytics.input';
import { type AnalyticsFigures, analyticsFigures, foldDirtyBuckets } from './analytics.store';
import { latencyPercentile } from './latency-histogram';

/** Advisory lock under which one replica at a time folds the dirty buckets (key space: hashtext). */
const FOLD_LOCK = 'switchboard:analytics-fold';

/** Most dirty buckets one transaction of a fold recomputes. */
const FOLD_BATCH = 200;

/** The figures of a range without calls. */
const NO_CALLS: AnalyticsFigures = { key: null, total: true, calls: 0, answered: 0, averageDurationSeconds: null, cost: 0, outcomes: {}, latencies: { keys: [], counts: [] } };

/** A group's row: its figures, its latency percentiles read from its histogram. */
function rowOf(figures: AnalyticsFigures): AnalyticsRowView {
  const outcomes = Object.entries(figures.outcomes)
    .filter(([, calls]) => calls > 0)
    .map(([outcome, calls]) => ({ outcome: outcome as AnalyticsRowView['outcomes'][number]['outcome'], calls }))
    .sort((a, b) => b.calls - a.calls);
  return {
    key: figures.key,
    calls: figures.calls,
    answered: figures.answered,
    answerRate: figures.calls === 0 ? 0 : figures.answered / figures.calls,
    averageDurationSeconds: figures.averageDurationSeconds,
    cost: figures.cost,
    latencyMedianMs: latencyPercentile(figures.latencies, 0.5),
    latencyP90Ms: latencyPercentile(figures.latencies, 0.9),
    outcomes,
  };
}

/** A company's call figures over a range of time, from rollups kept as calls change (docs/analytics.md). */
export class AnalyticsService {
  /** Calls of the caller's company from `from` to `to`, grouped as `groupBy` says, and the whole range's figures. */
  async analytics({ scope, em }: Caller, input: AnalyticsInput): Promise<AnalyticsView> {
    const query = parseInput(analyticsInput, input);
    const figures = await analyticsFigures(em, query, scope.companyId);
    return {
      from: query.from,
      to: query.to,
      groupBy: query.groupBy,
      timeZone: query.timeZone,
      total: rowOf(figures.find((f) => f.total) ?? NO_CALLS),
      rows: figures.filter((f) => !f.total).map(rowOf),
    };
  }

  /**
   * Folds every dirty bucket into its rollups, batch by batch, each batch a transaction
   * holding the fold's lock (the periodic sweeps call it on every replica; one folds at a
   * time, the others skip). Answers the buckets folded.
   */
  async fold(em: EntityManager): Promise<number> {
    let total = 0;
    for (;;) {
      const folded = await em.fork().transactional(async (tx) => ((await tryLockUntilCommit(tx, FOLD_LOCK)) ? foldDirtyBuckets(tx, FOLD_BATCH) : 0));
      total += folded;
      if (folded < FOLD_BATCH) return total;
    }
  }
}
