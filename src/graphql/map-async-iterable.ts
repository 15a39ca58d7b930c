/**
 * An async iterable whose values are `source`'s passed through `map`, in order. It is
 * graphql-js's own contract for subscription streams (its `mapAsyncIterator`, an internal
 * module renamed in graphql 17), written here so that no upgrade breaks it:
 * - `return()` is passed on to the source, so a client that unsubscribes ends the source
 *   (and with it the bus subscription behind it);
 * - a `map` that throws ends the source too, then rejects that `next()` with its error;
 * - `throw()` is passed on when the source has one.
 */
export function mapAsyncIterable<T, U>(source: AsyncIterable<T>, map: (value: T) => U | Promise<U>): AsyncIterableIterator<U> {
  const iterator = source[Symbol.asyncIterator]();
  const close = async () => {
    await iterator.return?.().catch(() => undefined);
  };
  const mapped = async (result: IteratorResult<T>): Promise<IteratorResult<U>> => {
    if (result.done) return { done: true, value: undefined };
    try {
      return { done: false, value: await map(result.value) };
    } catch (err) {
      await close();
      throw err;
    }
  };
  return {
    async next() {
      return mapped(await iterator.next());
    },
    async return() {
      return iterator.return ? mapped(await iterator.return()) : { done: true, value: undefined };
    },
    async throw(err: unknown) {
      if (iterator.throw) return mapped(await iterator.throw(err));
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
