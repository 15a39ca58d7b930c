import { LATENCY_RELATIVE_ERROR } from '../../../src/services/analytics/latency-histogram';

/** percentile_cont of `values` at `p`, as PostgreSQL computes it: the exact figure the histograms approximate. */
export function percentileCont(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const rank = p * (sorted.length - 1);
  const below = Math.floor(rank);
  return rank === below ? sorted[below] : sorted[below] + (rank - below) * (sorted[below + 1] - sorted[below]);
}

/**
 * Matches a latency percentile within the histograms' stated error of `exact`
 * (docs/analytics.md, "Latency"); null only where `exact` is null.
 */
export const withinLatencyError = (exact: number | null) => ({
  asymmetricMatch: (found: unknown) => (exact === null ? found === null : typeof found === 'number' && Math.abs(found - exact) <= LATENCY_RELATIVE_ERROR * exact + 1e-9),
  toString: () => `within ${LATENCY_RELATIVE_ERROR * 100}% of ${exact}`,
  toAsymmetricMatcher: () => `within ${LATENCY_RELATIVE_ERROR * 100}% of ${exact}`,
});
