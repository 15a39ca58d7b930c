import type { Campaign } from '../../entities';
import { delayMs } from '../shared/delays';

/**
 * Retry tiers (semantics: Campaigns): `number_of_call_attempts`, `retry_delay` and
 * `retry_delay_unit` are parallel arrays; tier i allows up to attempts[i] attempts, each
 * waiting delays[i] units[i] before it is made. Tiers run in order, so with attempts [2, 3],
 * delays [10, 1] and units [minutes, days], attempt 2 waits 10 minutes after attempt 1, and
 * attempts 3 to 5 wait a day each. No tiers: one attempt, no retry.
 */
export interface RetryTiers {
  attempts: readonly number[];
  delays: readonly number[];
  units: readonly string[];
}

/** A campaign's retry tiers: the one place its three parallel arrays are read as one. */
export const tiersOf = (c: Pick<Campaign, 'numberOfCallAttempts' | 'retryDelay' | 'retryDelayUnit'>): RetryTiers => ({
  attempts: c.numberOfCallAttempts,
  delays: c.retryDelay,
  units: c.retryDelayUnit,
});

/** How many attempts a contact gets in all. */
export const totalAttempts = (t: RetryTiers): number =>
  Math.max(
    1,
    t.attempts.reduce((sum, n) => sum + n, 0),
  );

/** Milliseconds to wait after attempt `n - 1` before attempt `n`; null when `n` is past the last tier. */
export function delayBefore(t: RetryTiers, n: number): number | null {
  if (n > totalAttempts(t)) return null;
  let reached = 0;
  for (let i = 0; i < t.attempts.length; i++) {
    reached += t.attempts[i];
    if (n <= reached) return delayMs(t.delays[i] ?? 0, t.units[i]);
  }
  return 0;
}
