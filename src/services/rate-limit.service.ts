import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimits } from '../config';
import type { Logger } from '../logger';
import { RateLimitedError } from './errors';
import type { Scope } from './scope';

/** The table of the counters, made by Migration20261123100100_rate_limits. */
export const RATE_LIMIT_TABLE = 'rate_limits';

/**
 * Connections of the limiter's own pool. Each request runs one short upsert per key, in
 * parallel; a few connections keep up with the service's own pool without crowding it.
 */
const POOL_MAX = 4;

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

type Limiter = RateLimiterPostgres;

/**
 * Per-credential and per-company limits, counted in PostgreSQL so that they hold across
 * replicas (rate-limiter-flexible's RateLimiterPostgres: one row per key and window, fixed
 * windows of `windowS`). A request refused by one limit is not counted by the others, so
 * that one runaway credential does not use up its company's allowance for the rest.
 */
export class RateLimitService {
  private readonly pool: pg.Pool | null = null;
  private readonly limiters: Record<'credential' | 'company' | 'make-call' | 'flow-trigger', Limiter> | null = null;

  constructor(limits: RateLimits | null, databaseUrl: string, logger: Logger) {
    if (!limits) return;
    const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_MAX, application_name: 'switchboard-rate-limits' });
    pool.on('error', (err) => logger.warn({ err }, 'rate limit store: idle connection failed'));
    // The table is shared: one limiter deletes every expired row (hourly, in the background).
    const limiter = (keyPrefix: string, points: number, clearExpiredByTimeout = false) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        clearExpiredByTimeout,
        keyPrefix,
        points,
        duration: limits.windowS,
        // Once a key is over its limit, this replica refuses it until the window ends
        // without asking the database again: floods cost no round trip.
        inMemoryBlockOnConsumed: points + 1,
      });
    this.pool = pool;
    this.limiters = {
      credential: limiter('credential', limits.perCredential, true),
      company: limiter('company', limits.perCompany),
      'make-call': limiter('make-call', limits.makeCall),
      'flow-trigger': limiter('flow-trigger', limits.flowTrigger),
    };
  }

  /**
   * Counts one of each of `kinds` for the caller, all keys at once (one round trip in
   * parallel). Throws RateLimitedError, with the longest wait of the refusing limits, when
   * any limit is used up; the points taken by the others are given back first.
   */
  async consume(scope: Scope, kinds: readonly RateLimited[]): Promise<void> {
    if (!this.limiters) return;
    const counted = this.keysOf(this.limiters, scope, kinds);
    const results = await Promise.allSettled(counted.map(([limiter, key]) => limiter.consume(key)));
    if (results.every((r) => r.status === 'fulfilled')) return;
    await Promise.allSettled(counted.map(([limiter, key], i) => (results[i].status === 'fulfilled' ? limiter.reward(key) : undefined)));
    let retryAfterMs = 0;
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      if (!(result.reason instanceof RateLimiterRes)) throw result.reason; // the store failed
      retryAfterMs = Math.max(retryAfterMs, result.reason.msBeforeNext);
    }
    throw new RateLimitedError(retryAfterMs);
  }

  private keysOf(limiters: NonNullable<typeof this.limiters>, scope: Scope, kinds: readonly RateLimited[]): [Limiter, string][] {
    return kinds.flatMap((kind): [Limiter, string][] => {
      if (kind !== 'request') return [[limiters[kind], scope.companyId]];
      const perCompany: [Limiter, string] = [limiters.company, scope.companyId];
      return scope.credential ? [[limiters.credential, scope.credential], perCompany] : [perCompany];
    });
  }

  async close(): Promise<void> {
    await this.pool?.end();
  }
}
