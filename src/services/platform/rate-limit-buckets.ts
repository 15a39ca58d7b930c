import { RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';

/** Share of a limit a replica reserves at once, and the most it reserves. */
const BATCH_SHARE = 1 / 50;
const BATCH_MAX = 100;
/** Past this many keys, buckets whose window has ended are dropped. */
const SWEEP_AT = 10_000;

/**
 * How many points a replica reserves from the store at once for a limit of `points`: 2% of
 * it, at least 1 (small limits stay exact, as without batches), at most 100.
 */
export const batchSize = (points: number) => Math.max(1, Math.min(BATCH_MAX, Math.floor(points * BATCH_SHARE)));

/** Points of one key reserved by this replica for one window of the store. */
export interface Bucket {
  tokens: number;
  /** When the store's window ends (epoch ms, this replica's clock, never after the store's). */
  until: number;
  /** The store has nothing left for this window: refuse without asking again. */
  exhausted: boolean;
  reserving?: Promise<void>;
}

/** What `take` answers: the bucket a point was taken from, or how long until the window ends. */
export type Taken = { bucket: Bucket } | { retryAfterMs: number };

/**
 * Local token buckets in front of a shared store (rate-limiter-flexible's PostgreSQL or Redis
 * limiter, fixed windows). A request takes a point from its key's bucket in memory; an empty
 * bucket reserves `batch` points from the store in one atomic increment and keeps the part
 * of it that is under the limit. The store therefore never grants more than the limit across
 * replicas; what batching trades is the other way: points one replica reserved and has not
 * used yet are unavailable to the others until the window ends (docs/operations.md).
 */
export class BatchedLimiter {
  private readonly buckets = new Map<string, Bucket>();
  readonly batch: number;

  constructor(private readonly store: RateLimiterStoreAbstract) {
    this.batch = batchSize(store.points);
  }

  async take(key: string): Promise<Taken> {
    for (;;) {
      const now = Date.now();
      let bucket = this.buckets.get(key);
      // A bucket still reserving its first points has no window yet, but is the current one.
      if (!bucket || (bucket.until <= now && !bucket.reserving)) {
        if (this.buckets.size >= SWEEP_AT) this.sweep(now);
        bucket = { tokens: 0, until: 0, exhausted: false };
        this.buckets.set(key, bucket);
      }
      if (bucket.tokens > 0) {
        bucket.tokens--;
        return { bucket };
      }
      if (bucket.exhausted) return { retryAfterMs: bucket.until - now };
      // Concurrent requests of one key share one reservation, then take from it in turn.
      bucket.reserving ??= this.reserve(bucket, key).finally(() => (bucket.reserving = undefined));
      await bucket.reserving;
    }
  }

  /** Returns a point taken by a request another limit refused, to the window it came from. */
  giveBack(taken: { bucket: Bucket }): void {
    taken.bucket.tokens++;
  }

  private async reserve(bucket: Bucket, key: string): Promise<void> {
    let res: RateLimiterRes;
    try {
      res = await this.store.consume(key, this.batch);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err; // the store failed
      res = err; // over the limit: the part of the batch still under it is ours
    }
    const before = res.consumedPoints - this.batch;
    const granted = Math.max(0, Math.min(this.batch, this.store.points - before));
    bucket.tokens += granted;
    bucket.until = Date.now() + res.msBeforeNext;
    bucket.exhausted = res.consumedPoints >= this.store.points;
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.until <= now && !bucket.reserving) this.buckets.delete(key);
  }
}
