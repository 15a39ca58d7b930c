/**
 * The latency histograms of the analytics rollups (docs/analytics.md, "Latency"): log-spaced
 * buckets, DDSketch's, so that a latency read as its bucket's value is within
 * LATENCY_RELATIVE_ERROR of it whatever its size. Key 0 holds the latencies under 1 ms (read
 * as 0); key k >= 1 holds (GAMMA^(k-2), GAMMA^(k-1)] ms, read as 2 GAMMA^(k-1) / (GAMMA + 1).
 */

/** Most a latency's bucket value differs from it, as a fraction of it (below 1 ms: read as 0). */
export const LATENCY_RELATIVE_ERROR = 0.01;

const GAMMA = (1 + LATENCY_RELATIVE_ERROR) / (1 - LATENCY_RELATIVE_ERROR);

/** SQL: the histogram key of the latency `ms` (a float8 expression). */
export const latencyKey = (ms: string): string => `CASE WHEN ${ms} < 1 THEN 0 ELSE ceil(ln(${ms}) / ${Math.log(GAMMA)})::int + 1 END`;

/** The value a key's latencies are read as. */
const valueOf = (key: number): number => (key === 0 ? 0 : (2 * GAMMA ** (key - 1)) / (GAMMA + 1));

/** A histogram: its occupied keys, ascending, and how many latencies each holds. */
export interface LatencyHistogram {
  keys: number[];
  counts: number[];
}

/**
 * The `p` percentile (0 to 1) of the histogram's latencies as `percentile_cont` computes it
 * (the two latencies around rank p x (n - 1), interpolated), each latency read as its
 * bucket's value: within LATENCY_RELATIVE_ERROR of the exact percentile_cont. Null when empty.
 */
export function latencyPercentile({ keys, counts }: LatencyHistogram, p: number): number | null {
  const n = counts.reduce((sum, count) => sum + count, 0);
  if (n === 0) return null;
  const rank = p * (n - 1);
  const below = Math.floor(rank);
  // The value of the latency at (0-based) rank `r`.
  const at = (r: number): number => {
    let seen = 0;
    for (let i = 0; i < keys.length; i++) {
      seen += counts[i];
      if (r < seen) return valueOf(keys[i]);
    }
    return valueOf(keys[keys.length - 1]);
  };
  const low = at(below);
  return rank === below ? low : low + (rank - below) * (at(below + 1) - low);
}
