import { Redis } from 'ioredis';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { RateLimits } from '../../config';
import type { Logger } from '../../logger';
import { RATE_LIMIT_TABLE } from '../../db/tables';
import { BatchedLimiter } from './rate-limit-buckets';
import { RateLimitedError, UnauthenticatedError } from '../shared/errors';
import type { Scope } from '../shared/scope';

/** Past this many addresses refused for failed authentications, those whose window has ended are dropped. */
const SWEEP_AT = 10_000;

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
  limiter(keyPrefix: string, points: number, clearExpired: boolean, durationS?: number): RateLimiterStoreAbstract;
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
    limiter: (keyPrefix, points, clearExpiredByTimeout, duration = windowS) =>
      new RateLimiterPostgres({ storeClient: pool, storeType: 'pool', tableName: RATE_LIMIT_TABLE, tableCreated: true, clearExpiredByTimeout, keyPrefix, points, duration }),
    close: async () => undefined,
  };
}

function redisStore(redisUrl: string, windowS: number, logger: Logger): Store {
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  client.on('error', (err) => logger.warn({ err }, 'rate limit store: redis connection failed'));
  return {
    // Redis expires its keys itself.
    limiter: (keyPrefix, points, _clearExpired, duration = windowS) => new RateLimiterRedis({ storeClient: client, keyPrefix: `switchboard:rate:${keyPrefix}`, points, duration }),
    close: async () => {
      await client.quit();
    },
  };
}

/** The window of the failed-authentication limit (AUTH_FAILURES_PER_MINUTE). */
const AUTH_FAILURE_WINDOW_S = 60;

/** Where a request says it comes from: its `X-Forwarded-For` value (repeated lines joined) and its socket's peer. */
export interface RequestOrigin {
  forwardedFor: string | undefined;
  peer: string | undefined;
}

/**
 * The client's address behind `trustedHops` proxies that each append the address they received
 * the request from to `X-Forwarded-For` (TRUST_PROXY_HOPS): of the header's entries followed by
 * the peer, the one `trustedHops` places before the last; the first when the request came
 * through fewer. With no trusted proxy, the peer: the header is whatever the client wrote. Koa's
 * `ctx.ip` under `app.proxy` with `app.maxIpsCount` set alike (src/app.ts) says the same.
 */
export function clientAddress({ forwardedFor, peer = '' }: RequestOrigin, trustedHops: number): string {
  if (trustedHops === 0) return peer;
  const chain = [...(forwardedFor ?? '').split(',').map((entry) => entry.trim()), peer].filter((entry) => entry !== '');
  return chain[Math.max(0, chain.length - 1 - trustedHops)] ?? peer;
}

/**
 * Per-credential and per-company limits that hold across replicas: counted in PostgreSQL
 * (or Redis), fixed windows of `windowS`, reserved by each replica in batches so that most
 * requests cost no round trip (BatchedLimiter). A request refused by one limit is not
 * counted by the others, so that one runaway credential does not use up its company's
 * allowance for the rest. Failed authentications are counted per client address in the same
 * store, one by one (`authenticating`).
 */
export class RateLimitService {
  private readonly store: Store | null = null;
  private readonly limiters: Record<Kind, BatchedLimiter> | null = null;
  private readonly authFailures: RateLimiterStoreAbstract | null = null;
  /** Addresses over the failed-authentication limit, as this replica has seen: when their window ends (epoch ms). */
  private readonly refusedAddresses = new Map<string, number>();
  private readonly trustProxyHops: number;

  constructor(
    limits: RateLimits | null,
    { authFailuresPerMinute, trustProxyHops }: { authFailuresPerMinute: number; trustProxyHops: number },
    stores: { sidePool: pg.Pool; redisUrl?: string },
    logger: Logger,
  ) {
    this.trustProxyHops = trustProxyHops;
    if (!limits && authFailuresPerMinute === 0) return;
    const windowS = limits?.windowS ?? AUTH_FAILURE_WINDOW_S;
    const store = stores.redisUrl ? redisStore(stores.redisUrl, windowS, logger) : postgresStore(stores.sidePool, windowS);
    this.store = store;
    if (authFailuresPerMinute > 0) this.authFailures = store.limiter('auth-failure', authFailuresPerMinute, !limits, AUTH_FAILURE_WINDOW_S);
    if (!limits) return;
    const limiter = (keyPrefix: string, points: number, clearExpired = false) => new BatchedLimiter(store.limiter(keyPrefix, points, clearExpired));
    this.limiters = {
      credential: limiter('credential', limits.perCredential, true),
      company: limiter('company', limits.perCompany),
      'make-call': limiter('make-call', limits.makeCall),
      'flow-trigger': limiter('flow-trigger', limits.flowTrigger),
    };
  }

  /**
   * Runs `verify`, the check of a credential sent from `origin`, unless the client's address
   * (`clientAddress`) is over its failed-authentication limit: then throws RateLimitedError
   * without checking the credential. A failure of `verify` (UnauthenticatedError) is counted
   * against the address before it is rethrown. The replica refuses an address from its own
   * count's answer, so a check costs no round trip; a failure costs one (docs/operations.md).
   */
  async authenticating<T>(origin: RequestOrigin, verify: () => Promise<T>): Promise<T> {
    if (!this.authFailures) return verify();
    const address = clientAddress(origin, this.trustProxyHops);
    const refusedUntil = this.refusedAddresses.get(address);
    if (refusedUntil !== undefined) {
      if (refusedUntil > Date.now()) throw new RateLimitedError(refusedUntil - Date.now());
      this.refusedAddresses.delete(address);
    }
    try {
      return await verify();
    } catch (err) {
      if (err instanceof UnauthenticatedError) await this.countAuthFailure(this.authFailures, address);
      throw err;
    }
  }

  private async countAuthFailure(limiter: RateLimiterStoreAbstract, address: string): Promise<void> {
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(address);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err; // the store failed
      res = err;
    }
    if (res.consumedPoints < limiter.points) return;
    const now = Date.now();
    if (this.refusedAddresses.size >= SWEEP_AT) for (const [key, until] of this.refusedAddresses) if (until <= now) this.refusedAddresses.delete(key);
    this.refusedAddresses.set(address, now + res.msBeforeNext);
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
