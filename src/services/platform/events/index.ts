import type pg from 'pg';
import type { BusErrorHandler, EventBus } from './event-bus';
import { PgEventBus } from './pg-event-bus';
import { RedisEventBus } from './redis-event-bus';

export type { BusErrorHandler, EventBus, EventPublisher } from './event-bus';
export type { Topic, Topics } from './topics';

/**
 * The bus every replica shares: Redis pub/sub when `redisUrl` is given, else PostgreSQL
 * LISTEN/NOTIFY on the service's own database, publishing through `sidePool`.
 */
export function startEventBus(options: { databaseUrl: string; sidePool: pg.Pool; redisUrl?: string; onError: BusErrorHandler }): Promise<EventBus> {
  return options.redisUrl ? RedisEventBus.start(options.redisUrl, options.onError) : PgEventBus.start(options.databaseUrl, options.sidePool, options.onError);
}
