/**
 * An async iterable whose values are `source`'s passed through `map`, in order. It is
 * graphql-js's own contract for subscription streams (its `mapAsyncIterator`, an internal
 * module renamed in graphql 17), written here so that no upgrade breaks it:
 * - `return()` is passed on to the source, so a client that unsubscribes ends the source
 *   (and with it the bus subscription behind it);
 * - a `map` that throws ends the source too, then rejects that `next()` with its error;
 * - `throw()` is passed on when the source has one.
 * `ended` runs once, when the stream ends for any of these reasons or its source does.
 * A plain iterator, not an async generator: a generator's `return()` would wait for the
 * pending `next()`, that is for the next event, before the socket could close.
 */
export function mapAsyncIterable<T, U>(source: AsyncIterable<T>, map: (value: T) => U | Promise<U>, ended: () => void = () => undefined): AsyncIterableIterator<U> {
  const iterator = source[Symbol.asyncIterator]();
  let live = true;
  const end = () => {
    if (live) ended();
    live = false;
  };
  const close = async () => {
    end();
    await iterator.return?.().catch(() => undefined);
  };
  const mapped = async (result: IteratorResult<T>): Promise<IteratorResult<U>> => {
    if (result.done) {
      end();
      return { done: true, value: undefined };
    }
    try {
      return { done: false, value: await map(result.value) };
    } catch (err) {
      await close();
      throw err;
    }
  };
  return {
    async next() {
      let result: IteratorResult<T>;
      try {
        result = await iterator.next();
      } catch (err) {
        end();
        throw err;
      }
      return mapped(result);
    },
    async return() {
      end();
      return iterator.return ? mapped(await iterator.return()) : { done: true, value: undefined };
    },
    async throw(err: unknown) {
      end();
      if (iterator.throw) return mapped(await iterator.throw(err));
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
