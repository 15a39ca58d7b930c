import type { ExecutionResult } from 'graphql';
import { WebSocket } from 'ws';
import type { Logger } from '../logger';
import type { Topic, Topics } from '../services/platform/events';
import { PendingEvents } from './subscriptions';
import { SEND_HIGH_WATER } from './ws-transport';

/** An event's result for one operation, encoded: the `payload` of its `next` message. */
interface Encoded {
  record: string;
  payload: string;
}

/**
 * One subscription's end of its socket: writes each `next` message of the operation `id`
 * itself, in the order given. While the socket holds SEND_HIGH_WATER bytes unsent (a client
 * that reads slower than its events come), messages wait in a PendingEvents list, which keeps
 * every record's last state, and go out as the socket drains.
 */
export class SocketSubscription {
  private readonly pending = new PendingEvents<Encoded>((e) => e.record);
  private blocked = false;
  private ended = false;
  private readonly prefix: string;

  constructor(
    private readonly socket: WebSocket,
    id: string,
  ) {
    // graphql-transport-ws's `next` message, as graphql-ws writes it: `{"id", "type", "payload"}`.
    this.prefix = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  }

  send(message: Encoded): void {
    if (this.ended) return;
    if (this.blocked || this.pending.size > 0) {
      this.pending.push(message);
      return;
    }
    this.write(message);
  }

  /** The subscription ended (completed by the client, or its socket closed): nothing more is written. */
  end(): void {
    this.ended = true;
  }

  /** Closes the socket as the transport does on a failure: 1011, no details. */
  fail(): void {
    this.end();
    this.socket.close(1011, 'Internal server error');
  }

  private write({ payload }: Encoded): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const data = `${this.prefix}${payload}}`;
    if (this.socket.bufferedAmount < SEND_HIGH_WATER) {
      this.socket.send(data);
      return;
    }
    this.blocked = true;
    this.socket.send(data, () => {
      this.blocked = false;
      while (!this.blocked && !this.ended && this.pending.size > 0) this.write(this.pending.shift());
    });
  }
}

/**
 * Subscription events delivered without an iterator per subscriber. graphql-ws runs a
 * subscription by awaiting its stream's values one by one and writing each; with 1,000
 * subscribers that chain of promises was most of what a delivery cost in JavaScript
 * (docs/performance.md, "Subscribers"). Here the bus hands each subscriber's event
 * (`deliver`, from `GraphQLContext.direct`) to the subscribers of the same operation
 * (`key`: company, text, operation name, variables) as one batch: the event's execution runs
 * once, its result is encoded once, and each socket gets `next` with its own id. Batches of
 * one operation go out in the order of their events, whatever the order their executions end.
 */
export class DirectDelivery {
  private readonly batches = new WeakMap<object, Map<string, SocketSubscription[]>>();
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /**
   * Gives `subscriber` the event `event` (news of `record`) of the operation `key`;
   * `execute` runs the operation on the event, `encode` turns its result into the payload.
   */
  deliver(
    key: string,
    event: Topics[Topic],
    record: string,
    subscriber: SocketSubscription,
    execute: () => Promise<ExecutionResult> | ExecutionResult,
    encode: (result: ExecutionResult) => string,
  ): void {
    let byKey = this.batches.get(event);
    if (!byKey) {
      byKey = new Map();
      this.batches.set(event, byKey);
    }
    let batch = byKey.get(key);
    if (!batch) {
      const subscribers: SocketSubscription[] = [];
      batch = subscribers;
      byKey.set(key, subscribers);
      const result = Promise.resolve().then(execute);
      // Each tail settles fulfilled (its failure handled here), so the next event's batch always follows it.
      const tail = (this.tails.get(key) ?? Promise.resolve())
        .then(() => result)
        .then((done) => {
          const message = { record, payload: encode(done) };
          for (const s of subscribers) s.send(message);
        })
        .catch((err: unknown) => {
          this.logger.error({ err }, 'graphql subscription event failed');
          for (const s of subscribers) s.fail();
        });
      this.tails.set(key, tail);
      void tail.then(() => {
        if (this.tails.get(key) === tail) this.tails.delete(key);
      });
    }
    batch.push(subscriber);
  }
}
