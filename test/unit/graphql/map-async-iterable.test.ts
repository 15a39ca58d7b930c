import { mapAsyncIterable } from '../../../src/graphql/map-async-iterable';

/** A source that records whether it was ended (its `finally` ran), as a bus subscription does. */
function source(values: number[]) {
  const state = { ended: false };
  async function* generate() {
    try {
      for (const v of values) yield v;
      await new Promise(() => undefined);
    } finally {
      state.ended = true;
    }
  }
  return { iterable: generate(), state };
}

describe('mapAsyncIterable (subscription streams)', () => {
  it('maps each value in order, sync and async mappers alike', async () => {
    const { iterable } = source([1, 2, 3]);
    const doubled = mapAsyncIterable(iterable, async (v) => v * 2);
    expect(await doubled.next()).toEqual({ done: false, value: 2 });
    expect(await doubled.next()).toEqual({ done: false, value: 4 });
    const labelled = mapAsyncIterable(source([7]).iterable, (v) => `#${v}`);
    expect(await labelled.next()).toEqual({ done: false, value: '#7' });
  });

  it('ends the source when the client unsubscribes (return)', async () => {
    const { iterable, state } = source([1, 2]);
    const mapped = mapAsyncIterable(iterable, (v) => v);
    await mapped.next();
    expect(await mapped.return!()).toEqual({ done: true, value: undefined });
    expect(state.ended).toBe(true);
    expect(await mapped.next()).toEqual({ done: true, value: undefined });
  });

  it('ends the source and rejects with the error when the mapper throws', async () => {
    const { iterable, state } = source([1, 2]);
    const mapped = mapAsyncIterable(iterable, () => {
      throw new Error('boom');
    });
    await expect(mapped.next()).rejects.toThrow('boom');
    expect(state.ended).toBe(true);
  });

  it('tells once that it ended: unsubscribed, failed, or its source done', async () => {
    const endings = () => {
      const seen = { count: 0 };
      return { seen, ended: () => (seen.count += 1) };
    };
    const unsubscribed = endings();
    const stopped = mapAsyncIterable(source([1]).iterable, (v) => v, unsubscribed.ended);
    await stopped.next();
    await stopped.return!();
    await stopped.return!();
    expect(unsubscribed.seen.count).toBe(1);

    const failed = endings();
    const failing = mapAsyncIterable(source([1]).iterable, () => Promise.reject(new Error('boom')), failed.ended);
    await expect(failing.next()).rejects.toThrow('boom');
    expect(failed.seen.count).toBe(1);

    const done = endings();
    async function* one() {
      yield 1;
    }
    const finite = mapAsyncIterable(one(), (v) => v, done.ended);
    expect(await finite.next()).toEqual({ done: false, value: 1 });
    expect(done.seen.count).toBe(0);
    expect(await finite.next()).toEqual({ done: true, value: undefined });
    expect(done.seen.count).toBe(1);
  });

  it('is its own async iterator, so for await reads it', async () => {
    const mapped = mapAsyncIterable(source([1, 2]).iterable, (v) => v + 1);
    const seen: number[] = [];
    for await (const v of mapped) {
      seen.push(v);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([2, 3]);
  });
});
