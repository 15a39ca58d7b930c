import type { EventBus, Topic, Topics } from '../services/platform/events';

/**
 * Events a subscriber may have pending before the superseded ones (events of a record with
 * a newer one pending) are dropped, oldest first.
 */
const MAX_PENDING = 1000;
/** Past this many pending events, even a record's last one is dropped (news may be missed: docs/graphql.md). */
const MAX_PENDING_RECORDS = 10_000;

/** The record an event is news of: events carry ids only, and a subscriber reads the record's state when it is delivered. */
const recordOf: { [T in Topic]: (payload: Topics[T]) => string } = {
  'call.updated': (p) => p.callId,
  'call.analyzed': (p) => p.callId,
  'call.machine': (p) => p.callId,
  'webhook.execution.updated': (p) => p.executionId,
  'agent.test-run.updated': (p) => p.runId,
};

/**
 * The events a subscriber has not taken yet. Every event is kept up to MAX_PENDING; past
 * it, an event of a record that has a newer one pending makes room (the newer one reads the
 * same, latest state), so a slow subscriber misses intermediate states, never a record's
 * last, within MAX_PENDING_RECORDS records.
 */
export class PendingEvents<P> {
  private readonly events: { record: string; payload: P }[] = [];
  private readonly perRecord = new Map<string, number>();

  constructor(private readonly recordOf: (payload: P) => string) {}

  get size(): number {
    return this.events.length;
  }

  push(payload: P): void {
    if (this.events.length >= MAX_PENDING) this.makeRoom();
    const record = this.recordOf(payload);
    this.events.push({ record, payload });
    this.perRecord.set(record, (this.perRecord.get(record) ?? 0) + 1);
  }

  shift(): P {
    const { record, payload } = this.events.shift()!;
    this.forget(record);
    return payload;
  }

  private makeRoom(): void {
    const superseded = this.events.findIndex((e) => this.perRecord.get(e.record)! > 1);
    if (superseded < 0 && this.events.length < MAX_PENDING_RECORDS) return;
    const [dropped] = this.events.splice(Math.max(superseded, 0), 1);
    this.forget(dropped.record);
  }

  private forget(record: string): void {
    const left = this.perRecord.get(record)! - 1;
    if (left === 0) this.perRecord.delete(record);
    else this.perRecord.set(record, left);
  }
}

/** Takes a subscription's events as they arrive, each with the record it is news of, instead of its iterator. */
export type DirectSink = (payload: Topics[Topic], record: string) => void;

/**
 * The events of `topic` from every replica that `keep` lets through, as an async iterator
 * that unsubscribes from the bus when the client completes or disconnects; `onKept` sees
 * each kept event as it arrives (before the subscriber takes it). Backpressure as
 * PendingEvents. With `direct` (the websocket server's subscriptions), each kept event goes
 * to it at once and the iterator yields nothing: it only ends (src/graphql/direct-delivery.ts).
 * Without it (graphql-js's own `subscribe` on the schema), the iterator yields the events.
 */
export function eventStream<T extends Topic>(
  bus: EventBus,
  topic: T,
  keep: (payload: Topics[T]) => boolean,
  onKept: (payload: Topics[T]) => void,
  direct?: DirectSink,
): AsyncIterableIterator<Topics[T]> {
  const record = recordOf[topic] as (payload: Topics[T]) => string;
  const pending = new PendingEvents<Topics[T]>(record);
  let wake: (() => void) | null = null;
  let done = false;
  const unsubscribe = bus.subscribe(topic, (payload) => {
    if (!keep(payload)) return;
    onKept(payload);
    if (direct) {
      direct(payload, record(payload));
      return;
    }
    pending.push(payload);
    wake?.();
  });
  const finish = async (): Promise<IteratorResult<Topics[T]>> => {
    done = true;
    unsubscribe();
    wake?.();
    return { done: true, value: undefined };
  };
  return {
    async next() {
      while (!done && pending.size === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      return done ? { done: true, value: undefined } : { done: false, value: pending.shift() };
    },
    return: finish,
    throw: async (err: unknown) => {
      await finish();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * Whether an event's id passes a subscription's optional id filter. Filter arguments reach
 * no service (the ids services parse are normalised there, `uuid()`), so they are
 * normalised here: the event's id is stored lower case, the client may write upper case.
 */
export const idFilter = (filter: string | null | undefined, id: string | null): boolean => !filter || filter.toLowerCase() === id;
