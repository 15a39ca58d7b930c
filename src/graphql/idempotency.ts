import type { IdempotencyService } from '../services/platform/idempotency.service';
import type { Caller } from '../services/shared/scope';

/** The `idempotencyKey` argument, as the schema documents it. */
export const IDEMPOTENCY_KEY_DESCRIPTION =
  '1 to 255 printable ASCII characters, unique per request: a repeat with the same key and arguments within 24 hours answers the same record and does nothing else (docs/graphql.md).';

/** A mutation made idempotent by its `idempotencyKey` argument. */
export interface KeyedMutation<T extends { id: string }> {
  key: string | null | undefined;
  /** The mutation's name and arguments: what makes two requests the same. */
  request: unknown[];
  /** The mutation, given the caller with the key to link what it creates to. */
  run: (caller: Caller) => Promise<T>;
  /** Reads the record the first request answered, for a replay. */
  reload: (id: string) => Promise<T>;
}

/** The answer kept for a mutation: the id of the record it answered (a replay reads it again). */
const answerOf = (id: string) => ({ status: 200, body: JSON.stringify({ id }) });

/**
 * GraphQL's side of the idempotency keys REST has (src/rest/idempotency.ts), on the same
 * service: the first mutation with a key runs; a repeat with the same arguments answers
 * the same record, read again (a GraphQL client selects its fields each time), and does
 * nothing else. Only successes are kept: after a failure the same key may be retried, unless
 * the first request created its record (linked to the key), which then answers it.
 */
export async function keyedMutation<T extends { id: string }>(service: IdempotencyService, caller: Caller, mutation: KeyedMutation<T>): Promise<T> {
  if (mutation.key === null || mutation.key === undefined) return mutation.run(caller);
  const outcome = await service.execute(caller, {
    key: service.parseKey(mutation.key, 'idempotencyKey'),
    request: ['graphql', ...mutation.request],
    run: mutation.run,
    keep: (result) => ('ok' in result ? answerOf(result.ok.id) : null),
    rebuild: async ([id]) => answerOf(id),
  });
  if ('ok' in outcome) return outcome.ok;
  return mutation.reload((JSON.parse(outcome.replayed.body) as { id: string }).id);
}
