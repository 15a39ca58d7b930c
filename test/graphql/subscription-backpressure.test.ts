import { busPubSub } from '../../src/graphql/subscriptions';
import type { EventBus, Topics } from '../../src/services/events';
import { LocalFanout } from '../../src/services/events/event-bus';

// A subscriber that is behind gets the last state of every record: news of a record already
// pending replaces it in its place (a subscriber reads the record when the event is delivered).

function memoryBus(): EventBus & { send(payload: Topics['call.updated']): void } {
  const fanout = new LocalFanout((err) => {
    throw err;
  });
  return {
    subscribe: (topic, handler) => fanout.subscribe(topic, handler),
    publish: async (topic, payload) => fanout.deliver(LocalFanout.encode(topic, payload)),
    send: (payload) => fanout.deliver(LocalFanout.encode('call.updated', payload)),
    close: async () => undefined,
  };
}

const call = (callId: string, n: number) => ({ companyId: 'c', callId, campaignId: null, workspace: `w${n}` });

it('delivers, to a subscriber behind, each record once, with its latest event, in the order records first changed', async () => {
  const bus = memoryBus();
  const stream = busPubSub(bus).subscribe('call.updated') as AsyncIterableIterator<Topics['call.updated']>;
  bus.send(call('a', 1));
  bus.send(call('b', 1));
  bus.send(call('a', 2));
  bus.send(call('a', 3));
  bus.send(call('c', 1));
  const got = [];
  for (let i = 0; i < 3; i++) got.push((await stream.next()).value);
  expect(got).toEqual([call('a', 3), call('b', 1), call('c', 1)]);

  // Once caught up, every event is delivered again.
  const next = stream.next();
  bus.send(call('a', 4));
  expect((await next).value).toEqual(call('a', 4));
  bus.send(call('a', 5));
  expect((await stream.next()).value).toEqual(call('a', 5));
  await stream.return!();
  expect((await stream.next()).done).toBe(true);
});
