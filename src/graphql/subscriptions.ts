import type { PubSub, SubscriptionHandlerData } from 'type-graphql';
import type { EventBus, Topic, Topics } from '../services/events';
import type { GraphQLContext } from './context';

/**
 * Most records a slow subscriber may have news of pending. Past it, the oldest record's
 * news is dropped (news may be missed: docs/graphql.md).
 */
const MAX_PENDING_RECORDS = 10_000;

/** The record an event is news of: events carry ids only, and a subscriber reads the record's state when it is delivered. */
const recordOf: { [T in Topic]: (payload: Topics[T]) => string } = {
  'call.updated': (p) => p.callId,
  'call.analyzed': (p) => p.callId,
  'webhook.execution.updated': (p) => p.executionId,
};

/**
 * The events of `topic` from every replica, as an async iterator that unsubscribes from
 * the bus when the client completes or disconnects. Backpressure: while a subscriber is
 * behind, a new event of a record that already has one pending replaces it in its place
 * (both would read the same, latest state), so a slow subscriber gets fewer events but
 * always the last state of each record, within MAX_PENDING_RECORDS records.
 */
function eventStream<T extends Topic>(bus: EventBus, topic: T): AsyncIterableIterator<Topics[T]> {
  const pending = new Map<string, Topics[T]>();
  const key = recordOf[topic] as (payload: Topics[T]) => string;
  let wake: (() => void) | null = null;
  let done = false;
  const unsubscribe = bus.subscribe(topic, (payload) => {
    const record = key(payload);
    if (!pending.has(record) && pending.size >= MAX_PENDING_RECORDS) pending.delete(pending.keys().next().value!);
    pending.set(record, payload);
    wake?.();
  });
  const finish = async (): Promise<IteratorResult<Topics[T]>> => {
    done = true;
    unsubscribe();
    wake?.();
    return { done: true, value: undefined };
  };
  const take = (): Topics[T] => {
    const [record, payload] = pending.entries().next().value!;
    pending.delete(record);
    return payload;
  };
  return {
    async next() {
      while (!done && pending.size === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      return done ? { done: true, value: undefined } : { done: false, value: take() };
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
 * TypeGraphQL's PubSub over the event bus: `@Subscription({ topics: 'call.updated' })`
 * listens to the bus through it. Services publish on the bus itself, after commit.
 */
export function busPubSub(bus: EventBus): PubSub {
  return {
    publish: (topic, payload) => void bus.publish(topic as Topic, payload as Topics[Topic]),
    subscribe: (topic) => eventStream(bus, topic as Topic),
  };
}

/**
 * Whether an event's id passes a subscription's optional id filter. Filter arguments reach
 * no service (the ids services parse are normalised there, `uuid()`), so they are
 * normalised here: the event's id is stored lower case, the client may write upper case.
 */
export const idFilter = (filter: string | null | undefined, id: string | null): boolean => !filter || filter.toLowerCase() === id;

/**
 * A subscription filter that lets through only the subscriber's own company's events,
 * then those `matches` keeps (the subscription's filter arguments).
 */
export function ownEvents<T extends Topic, A>(matches: (args: A, event: Topics[T]) => boolean) {
  return ({ payload, args, context }: SubscriptionHandlerData<Topics[T], A, GraphQLContext>): boolean =>
    payload.companyId === context.caller.scope.companyId && matches(args, payload);
}
