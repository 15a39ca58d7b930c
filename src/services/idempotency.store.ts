import type { EntityManager } from '@mikro-orm/postgresql';

/** Idempotency keys (migration Migration20261123230150_idempotency_keys). */
export const IDEMPOTENCY_TABLE = 'idempotency_keys';

/** The first answer to a request, as it is replayed. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** A key another request holds: still running (no answer yet), or finished with its answer. */
export interface HeldKey {
  fingerprint: string;
  answer: StoredAnswer | null;
}

export interface KeyTimes {
  /** How long a key is kept. */
  ttlMs: number;
  /** How long an unfinished claim holds its key before another request may take it over. */
  abandonedAfterMs: number;
}

/**
 * Claims `key` for a request, in one statement: a new key is inserted; an expired key, or
 * one whose request never finished (its process died), is taken over. Answers null when
 * claimed, else the key as another request holds it. Between two replicas racing for the
 * same key, the primary key lets exactly one claim it.
 */
export async function claimKey(em: EntityManager, companyId: string, key: string, fingerprint: string, times: KeyTimes): Promise<HeldKey | null> {
  for (;;) {
    const claimed = await em.execute(
      `INSERT INTO ${IDEMPOTENCY_TABLE} AS k (company_id, key, fingerprint, claimed_at, expires_at)
       VALUES (?, ?, ?, now(), now() + make_interval(secs => ?))
       ON CONFLICT (company_id, key) DO UPDATE
         SET fingerprint = excluded.fingerprint, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at, response_status = NULL, response_body = NULL
         WHERE k.expires_at <= now() OR (k.response_status IS NULL AND k.claimed_at < now() - make_interval(secs => ?))
       RETURNING 1`,
      [companyId, key, fingerprint, times.ttlMs / 1000, times.abandonedAfterMs / 1000],
    );
    if (claimed.length > 0) return null;
    const [held]: { fingerprint: string; response_status: number | null; response_body: unknown }[] = await em.execute(
      `SELECT fingerprint, response_status, response_body FROM ${IDEMPOTENCY_TABLE} WHERE company_id = ? AND key = ?`,
      [companyId, key],
    );
    // Released (a validation failure) between the two statements: claim again.
    if (!held) continue;
    return { fingerprint: held.fingerprint, answer: held.response_status === null ? null : { status: held.response_status, body: held.response_body } };
  }
}

/** Stores the answer of the request holding `key`. */
export async function storeAnswer(em: EntityManager, companyId: string, key: string, answer: StoredAnswer): Promise<void> {
  await em.execute(`UPDATE ${IDEMPOTENCY_TABLE} SET response_status = ?, response_body = ?::jsonb WHERE company_id = ? AND key = ?`, [
    answer.status,
    JSON.stringify(answer.body ?? null),
    companyId,
    key,
  ]);
}

/** Frees an unfinished claim: the request's answer is not kept (failed validation, our failure). */
export async function releaseKey(em: EntityManager, companyId: string, key: string): Promise<void> {
  await em.execute(`DELETE FROM ${IDEMPOTENCY_TABLE} WHERE company_id = ? AND key = ? AND response_status IS NULL`, [companyId, key]);
}

/** Deletes expired keys. */
export async function deleteExpiredKeys(em: EntityManager): Promise<void> {
  await em.execute(`/* sweep:idempotency.expired */ DELETE FROM ${IDEMPOTENCY_TABLE} WHERE expires_at <= now()`);
}
