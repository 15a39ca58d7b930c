import { randomUUID } from 'node:crypto';
import { type Envelope, type Topic, TOPICS, type Topics } from './topics';

/** What services get: they publish after their changes are committed, and nothing else. */
export interface EventPublisher {
  /**
   * Sends the event to every replica. Never rejects: live news may be missed (subscribers
   * re-read state after a reconnect), so a bus outage must not fail the change that was
   * already committed; the failure is reported to the bus's error handler instead.
   */
  publish<T extends Topic>(topic: T, payload: Topics[T]): Promise<void>;
}

export type Handler<T extends Topic> = (payload: Topics[T]) => void;

/** Publish/subscribe across every replica of the service. */
export interface EventBus extends EventPublisher {
  /** Calls `handler` for each event of `topic` from any replica; returns the unsubscribe. */
  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void;
  close(): Promise<void>;
}

/** Reports transport failures (lost connection, refused publish) without throwing. */
export type BusErrorHandler = (err: unknown, context: string) => void;

/**
 * The in-process half every transport shares: local subscribers by topic, and the decoding
 * of messages received from the transport. A message that is not a known event is dropped.
 * An event published here reaches this replica's subscribers at once (`publish`), without
 * the round trip through the transport; the transport's copy of it, which carries this
 * replica's `origin`, is then skipped, so each subscriber gets it once.
 */
export class LocalFanout {
  private readonly handlers = new Map<Topic, Set<Handler<Topic>>>();
  private readonly origin = randomUUID();
  private seq = 0;

  constructor(private readonly onError: BusErrorHandler) {}

  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void {
    const set = this.handlers.get(topic) ?? new Set();
    this.handlers.set(topic, set);
    set.add(handler as Handler<Topic>);
    return () => {
      set.delete(handler as Handler<Topic>);
    };
  }

  /**
   * Delivers an event of this replica to its own subscribers and answers the message the
   * transport sends the other replicas. Subscribers get a copy, as of a message received,
   * never the publisher's object.
   */
  publish<T extends Topic>(topic: T, payload: Topics[T]): string {
    const message = JSON.stringify({ topic, payload, origin: this.origin, seq: (this.seq += 1) } satisfies Envelope<T>);
    this.dispatch({ topic, payload: structuredClone(payload) });
    return message;
  }

  /** Delivers a message received from the transport; this replica's own were delivered when published. */
  deliver(message: string): void {
    let event: Envelope;
    try {
      event = JSON.parse(message) as Envelope;
    } catch (err) {
      this.onError(err, 'undecodable event');
      return;
    }
    if (event.origin === this.origin || !TOPICS.includes(event.topic) || typeof event.payload !== 'object' || event.payload === null) return;
    this.dispatch(event);
  }

  private dispatch(event: Envelope): void {
    for (const handler of this.handlers.get(event.topic) ?? []) {
      try {
        handler(event.payload);
      } catch (err) {
        this.onError(err, `subscriber of ${event.topic} failed`);
      }
    }
  }
}
