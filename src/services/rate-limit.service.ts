import { Redis } from 'ioredis';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRedis, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { RateLimits } from '../config';
import type { Logger } from '../logger';
import { BatchedLimiter } from './rate-limit-buckets';
import { RateLimitedError } from './errors';
import type { Scope } from './scope';

/** The table of the counters, made by Migration20261123100100_rate_limits. */
export const RATE_LIMIT_TABLE = 'rate_limits';

/**
 * What a caller is counted for: `request` is every authenticated REST request, GraphQL HTTP
 * request and websocket operation; `make-call` and `flow-trigger` are counted in addition,
 * against their own, lower limits.
 */
export type RateLimited = 'request' | 'make-call' | 'flow-trigger';

/**
 * The limits of a service's costly operations, declared once as a static `limits` of the
 * service, by method name; every transport counts an operation's limit on top of the
 * request limit before running it (docs/operations.md).
 */
export type OperationLimits<S> = { readonly [K in keyof S]?: Exclude<RateLimited, 'request'> };

type Kind = 'credential' | 'company' | 'make-call' | 'flow-trigger';

/** Where the counts that every replica shares live: PostgreSQL, or Redis when `redisUrl` is set. */
interface Store {
  limiter(keyPrefix: string, points: number, clearExpired: boolean): RateLimiterStoreAbstract;
  /** Closes the connections the store opened itself (the PostgreSQL store borrows the side pool: none). */
  close(): Promise<void>;
}

/**
 * Counts in PostgreSQL, reserved on the side pool (src/db/side-pool.ts): reservations are a
 * few per key and window, one statement each.
 */
function postgresStore(pool: pg.Pool, windowS: number): Store {
  return {
    // The table is shared: one limiter deletes every expired row (hourly, in the background).
    limiter: (keyPrefix, points, clearExpiredByTimeout) =>
      new RateLimiterPostgres({ storeClient: pool, storeType: 'pool', tableName: RATE_LIMIT_TABLE, tableCreated: true, clearExpiredByTimeout, keyPrefix, points, duration: windowS }),
    close: async () => undefined,
  };
}

function redisStore(redisUrl: string, windowS: number, logger: Logger): Store {
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  client.on('error', (err) => logger.warn({ err }, 'rate limit store: redis connection failed'));
  return {
    // Redis expires its keys itself.
    limiter: (keyPrefix, points) => new RateLimiterRedis({ storeClient: client, keyPrefix: `switchboard:rate:${keyPrefix}`, points, duration: windowS }),
    close: async () => {
      await client.quit();
    },
  };
}

/**
 * Per-credential and per-company limits that hold across replicas: counted in PostgreSQL
 * (or Redis), fixed windows of `windowS`, reserved by each replica in batches so that most
 * requests cost no round trip (BatchedLimiter). A request refused by one limit is not
 * counted by the others, so that one runaway credential does not use up its company's
 * allowance for the rest.
 */
export class RateLimitService {
  private readonly store: Store | null = null;
  private readonly limiters: Record<Kind, BatchedLimiter> | null = null;

  constructor(limits: RateLimits | null, stores: { sidePool: pg.Pool; redisUrl?: string }, logger: Logger) {
    if (!limits) return;
    const store = stores.redisUrl ? redisStore(stores.redisUrl, limits.windowS, logger) : postgresStore(stores.sidePool, limits.windowS);
    const limiter = (keyPrefix: string, points: number, clearExpired = false) => new BatchedLimiter(store.limiter(keyPrefix, points, clearExpired));
    this.store = store;
    this.limiters = {
      credential: limiter('credential', limits.perCredential, true),
      company: limiter('company', limits.perCompany),
      'make-call': limiter('make-call', limits.makeCall),
      'flow-trigger': limiter('flow-trigger', limits.flowTrigger),
    };
  }

  /**
   * Counts one of each of `kinds` for the caller, all keys at once (from memory, or one
   * reservation round trip in parallel). Throws RateLimitedError, with the longest wait of the
   * refusing limits, when any limit is used up; the points taken by the others are given back.
   */
  async consume(scope: Scope, kinds: readonly RateLimited[]): Promise<void> {
    if (!this.limiters) return;
    const counted = this.keysOf(this.limiters, scope, kinds);
    const results = await Promise.allSettled(counted.map(([limiter, key]) => limiter.take(key)));
    const taken = results.map((r) => (r.status === 'fulfilled' ? r.value : null));
    if (taken.every((t) => t !== null && 'bucket' in t)) return;
    let retryAfterMs = 0;
    counted.forEach(([limiter], i) => {
      const t = taken[i];
      if (t && 'bucket' in t) limiter.giveBack(t);
      else if (t) retryAfterMs = Math.max(retryAfterMs, t.retryAfterMs);
    });
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason; // the store failed
    throw new RateLimitedError(retryAfterMs);
  }

  private keysOf(limiters: Record<Kind, BatchedLimiter>, scope: Scope, kinds: readonly RateLimited[]): [BatchedLimiter, string][] {
    return kinds.flatMap((kind): [BatchedLimiter, string][] => {
      if (kind !== 'request') return [[limiters[kind], scope.companyId]];
      const perCompany: [BatchedLimiter, string] = [limiters.company, scope.companyId];
      return scope.credential ? [[limiters.credential, scope.credential], perCompany] : [perCompany];
    });
  }

  async close(): Promise<void> {
    await this.store?.close();
  }
}
