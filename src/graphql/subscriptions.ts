import type { PubSub, SubscriptionHandlerData } from 'type-graphql';
import type { EventBus, Topic, Topics } from '../services/events';
import type { GraphQLContext } from './context';

/** Most events a slow subscriber may have pending; older ones are dropped (news may be missed). */
const MAX_PENDING = 1000;

/**
 * The events of `topic` from every replica, as an async iterator that unsubscribes from
 * the bus when the client completes or disconnects.
 */
function eventStream<T extends Topic>(bus: EventBus, topic: T): AsyncIterableIterator<Topics[T]> {
  const pending: Topics[T][] = [];
  let wake: (() => void) | null = null;
  let done = false;
  const unsubscribe = bus.subscribe(topic, (payload) => {
    if (pending.length >= MAX_PENDING) pending.shift();
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
      while (!done && pending.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      return done ? { done: true, value: undefined } : { done: false, value: pending.shift()! };
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
