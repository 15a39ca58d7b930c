import { Redis } from 'ioredis';
import { type BusErrorHandler, type EventBus, type Handler, LocalFanout } from './event-bus';
import type { Topic, Topics } from './topics';

export const REDIS_CHANNEL = 'switchboard:events';

/**
 * Event bus on Redis pub/sub, used when REDIS_URL is set. A subscribed Redis connection
 * can do nothing else, hence two: one publishes, one listens. ioredis reconnects both
 * and subscribes again on its own after a drop.
 */
export class RedisEventBus implements EventBus {
  private readonly fanout: LocalFanout;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly onError: BusErrorHandler,
  ) {
    this.fanout = new LocalFanout(onError);
  }

  /** Connects both connections and subscribes; rejects when Redis cannot be reached. */
  static async start(url: string, onError: BusErrorHandler): Promise<RedisEventBus> {
    const options = { lazyConnect: true, maxRetriesPerRequest: 2 };
    const pub = new Redis(url, options);
    const sub = new Redis(url, options);
    for (const conn of [pub, sub]) conn.on('error', (err) => onError(err, 'redis connection'));
    const bus = new RedisEventBus(pub, sub, onError);
    sub.on('message', (channel: string, message: string) => {
      if (channel === REDIS_CHANNEL) bus.fanout.deliver(message);
    });
    try {
      await Promise.all([pub.connect(), sub.connect()]);
      await sub.subscribe(REDIS_CHANNEL);
    } catch (err) {
      pub.disconnect();
      sub.disconnect();
      throw err;
    }
    return bus;
  }

  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void {
    return this.fanout.subscribe(topic, handler);
  }

  async publish<T extends Topic>(topic: T, payload: Topics[T]): Promise<void> {
    try {
      await this.pub.publish(REDIS_CHANNEL, this.fanout.publish(topic, payload));
    } catch (err) {
      this.onError(err, `publish ${topic}`);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pub.quit().catch(() => undefined), this.sub.quit().catch(() => undefined)]);
  }
}
