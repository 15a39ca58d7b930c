import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import { inTransaction } from '../../db/transaction';
import type { Within } from '../../db/statements';
import { ConflictError, UnprocessableError, ValidationError } from '../shared/errors';
import { claimKey, deleteExpiredKeys, type HeldKey, heldKey, type KeyTimes, linkKey, releaseKey, type StoredAnswer, storeAnswer } from './idempotency.store';
import type { Caller } from '../shared/scope';

/** 1 to 255 printable ASCII characters (docs/rest.md, "Idempotent retries"). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** Keys are kept a day, as Stripe keeps them: long enough for any client's retries. */
export const KEY_TIMES: KeyTimes = {
  ttlMs: 24 * 3_600_000,
  // Longer than any request may run (the slowest, a flow trigger, is bounded well below).
  abandonedAfterMs: 5 * 60_000,
};

/** How long a client is told to wait before retrying a key in use (`Retry-After`). */
const KEY_IN_USE_RETRY_S = 1;

/** The key's first request still runs, or died before writing anything: retry later. A 409 under every REST error policy. */
export class KeyInUseError extends ConflictError {
  constructor() {
    super('A request with this Idempotency-Key is still in progress; retry later', KEY_IN_USE_RETRY_S);
  }
}

/** The key answered another request. A 422 under every REST error policy. */
export class KeyReusedError extends UnprocessableError {
  constructor() {
    super('Idempotency-Key was already used for a different request');
  }
}

/** A request to run under a key: what identifies it, and the work that answers it. */
export interface KeyedRequest<T> {
  key: string;
  /** Everything that makes two requests the same: operation, target, body. */
  request: unknown;
  /** The work, given the caller with the key to link what it creates to (`createUnderKey`). */
  run: (caller: Caller) => Promise<T>;
  /** The answer to keep; null when it is not kept (failed validation: the client may fix and retry). */
  keep: (result: { ok: T } | { error: unknown }) => StoredAnswer | null;
  /**
   * The answer rebuilt from the records the first request created (as it linked them), for
   * a key whose first request created them but did not store its answer (its process died).
   */
  rebuild: (resourceIds: string[]) => Promise<StoredAnswer>;
}

/**
 * Runs `create` where the caller says (`on`) and, when the caller has an idempotency key,
 * in a transaction (`on`'s, or one of its own on `caller.em`) where it links the records
 * `create` made (`created`) to the key: the records and the link commit together
 * (docs/rest.md, "Idempotent retries"). `create` is told where it runs.
 */
export async function createUnderKey<T>(caller: Caller, on: Within, create: (on: Within) => Promise<T>, created: (result: T) => string[]): Promise<T> {
  const { em, idempotency } = caller;
  if (!idempotency) return create(on);
  return inTransaction(em, on, async (keyed) => {
    const result = await create(keyed);
    const ids = created(result);
    if (ids.length > 0) await idempotency.link(keyed.tx, ids);
    return result;
  });
}

/**
 * Idempotency keys of writes, shared by REST (`idempotent` operations) and GraphQL
 * (`idempotencyKey` arguments): the first request with a key runs and its answer is kept
 * for a day; a repeat with the same request answers that answer and does nothing else; a
 * repeat with another request is refused (422), as is one while the first still runs (409).
 * What the first request creates is linked to its key in the same transaction, so a key
 * whose process died after creating is answered from those records, never run again.
 * Keys are per company and live in PostgreSQL, so every replica sees them.
 */
export class IdempotencyService {
  constructor(private readonly times: KeyTimes = KEY_TIMES) {}

  /** Validates a key as sent; `field` names it as the surface does (`Idempotency-Key`, `idempotencyKey`). */
  parseKey(raw: string, field: string): string {
    if (!KEY.test(raw)) throw ValidationError.of(field, 'Must be 1 to 255 printable ASCII characters');
    return raw;
  }

  /**
   * Runs `run` unless the key already answered: then answers `{replayed}` with the first
   * answer. Throws what `run` throws (after keeping or releasing the key, per `keep`).
   */
  async execute<T>(caller: Caller, keyed: KeyedRequest<T>): Promise<{ ok: T } | { replayed: StoredAnswer }> {
    const { em, scope } = caller;
    const db = em.fork();
    const fingerprint = createHash('sha256')
      .update(stringify(keyed.request) ?? '')
      .digest('hex');
    const held = await claimKey(db, scope.companyId, keyed.key, fingerprint, this.times);
    if (held) {
      if (held.fingerprint !== fingerprint) throw new KeyReusedError();
      return { replayed: await this.answerOf(db, scope.companyId, keyed, held) };
    }
    const link = (tx: Caller['em'], ids: string[]) => linkKey(tx, scope.companyId, keyed.key, ids);
    let result: { ok: T } | { error: unknown };
    try {
      result = { ok: await keyed.run({ ...caller, idempotency: { link } }) };
    } catch (error) {
      result = { error };
    }
    const answer = keyed.keep(result);
    if (answer) await storeAnswer(db, scope.companyId, keyed.key, answer);
    else await releaseKey(db, scope.companyId, keyed.key);
    if ('error' in result) throw result.error;
    return result;
  }

  /**
   * The kept answer of a key another request holds; when it has none but its records are
   * linked (its process died between committing them and storing the answer), the answer
   * rebuilt from them, kept from then on. With neither, the work is unknown: 409.
   */
  private async answerOf(db: Caller['em'], companyId: string, keyed: Pick<KeyedRequest<unknown>, 'key' | 'rebuild'>, held: HeldKey): Promise<StoredAnswer> {
    if (held.answer) return held.answer;
    if (!held.resourceIds) throw new KeyInUseError();
    await storeAnswer(db, companyId, keyed.key, await keyed.rebuild(held.resourceIds));
    // A concurrent replay, or the first request itself, may have stored its answer first: answer that one.
    return (await heldKey(db, companyId, keyed.key))!.answer!;
  }

  /** Deletes the keys older than a day. */
  async sweep(em: Caller['em']): Promise<void> {
    await deleteExpiredKeys(em);
  }
}
