import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import { ConflictError, UnprocessableError, ValidationError } from './errors';
import { claimKey, deleteExpiredKeys, type KeyTimes, releaseKey, type StoredAnswer, storeAnswer } from './idempotency.store';
import type { Caller } from './scope';

/** 1 to 255 printable ASCII characters (docs/rest.md, "Idempotent retries"). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** Keys are kept a day, as Stripe keeps them: long enough for any client's retries. */
export const KEY_TIMES: KeyTimes = {
  ttlMs: 24 * 3_600_000,
  // Longer than any request may run (the slowest, a flow trigger, is bounded well below).
  abandonedAfterMs: 5 * 60_000,
};

/** The key's first request still runs: retry later. A 409 under every REST error policy. */
export class KeyInUseError extends ConflictError {
  constructor() {
    super('A request with this Idempotency-Key is still in progress; retry later');
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
  run: () => Promise<T>;
  /** The answer to keep; null when it is not kept (failed validation: the client may fix and retry). */
  keep: (result: { ok: T } | { error: unknown }) => StoredAnswer | null;
}

/**
 * Idempotency keys of writes, shared by REST (`idempotent` operations) and GraphQL
 * (`idempotencyKey` arguments): the first request with a key runs and its answer is kept
 * for a day; a repeat with the same request answers that answer and does nothing else; a
 * repeat with another request is refused (422), as is one while the first still runs (409).
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
  async execute<T>({ em, scope }: Caller, keyed: KeyedRequest<T>): Promise<{ ok: T } | { replayed: StoredAnswer }> {
    const db = em.fork();
    const fingerprint = createHash('sha256').update(stringify(keyed.request) ?? '').digest('hex');
    const held = await claimKey(db, scope.companyId, keyed.key, fingerprint, this.times);
    if (held) {
      if (held.fingerprint !== fingerprint) throw new KeyReusedError();
      if (!held.answer) throw new KeyInUseError();
      return { replayed: held.answer };
    }
    let result: { ok: T } | { error: unknown };
    try {
      result = { ok: await keyed.run() };
    } catch (error) {
      result = { error };
    }
    const answer = keyed.keep(result);
    if (answer) await storeAnswer(db, scope.companyId, keyed.key, answer);
    else await releaseKey(db, scope.companyId, keyed.key);
    if ('error' in result) throw result.error;
    return result;
  }

  /** Deletes the keys older than a day. */
  async sweep(em: Caller['em']): Promise<void> {
    await deleteExpiredKeys(em);
  }
}
