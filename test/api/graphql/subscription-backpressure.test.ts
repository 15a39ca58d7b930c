import { eventStream } from '../../../src/graphql/subscriptions';
import type { EventBus, Topics } from '../../../src/services/platform/events';
import { LocalFanout } from '../../../src/services/platform/events/event-bus';

// A subscriber gets every event while it is less than 1,000 behind; past that, the events of
// records that have a newer one pending make room (the newer one's read shows the same or a
// later state), so it never misses the last state of a record.

function memoryBus(): EventBus & { send(payload: Topics['call.updated']): void } {
  const fanout = new LocalFanout((err) => {
    throw err;
  });
  return {
    subscribe: (topic, handler) => fanout.subscribe(topic, handler),
    publish: async (topic, payload) => {
      fanout.publish(topic, payload);
    },
    send: (payload) => {
      fanout.publish('call.updated', payload);
    },
    close: async () => undefined,
  };
}

const call = (callId: string, n: number) => ({ companyId: 'c', callId, campaignId: null, workspace: `w${n}` });

const drain = async (stream: AsyncIterableIterator<Topics['call.updated']>, n: number) => {
  const got = [];
  for (let i = 0; i < n; i++) got.push((await stream.next()).value);
  return got;
};

it('delivers every event, in order, to a subscriber less than 1,000 events behind', async () => {
  const bus = memoryBus();
  const stream = eventStream(
    bus,
    'call.updated',
    () => true,
    () => undefined,
  );
  const sent = [call('a', 1), call('b', 1), call('a', 2), call('a', 3), call('c', 1)];
  for (const event of sent) bus.send(event);
  expect(await drain(stream, sent.length)).toEqual(sent);
  await stream.return!();
  expect((await stream.next()).done).toBe(true);
});

it('past 1,000 pending, drops the oldest event of a record that has a newer one pending, never a last one', async () => {
  const bus = memoryBus();
  const stream = eventStream(
    bus,
    'call.updated',
    () => true,
    () => undefined,
  );
  const others = Array.from({ length: 999 }, (_, i) => call(`r${i}`, 1));
  bus.send(call('a', 1));
  for (const event of others) bus.send(event);
  // 1,000 pending, each the last of its record: nothing can make room, so none is dropped.
  bus.send(call('a', 2));
  // Now a1 is superseded by a2: it makes room for a3, then a2 for b1.
  bus.send(call('a', 3));
  bus.send(call('b', 1));
  expect(await drain(stream, 1001)).toEqual([...others, call('a', 3), call('b', 1)]);
  await stream.return!();
});
