import type { EntityManager } from '@mikro-orm/postgresql';
import { IDEMPOTENCY_TABLE } from '../../db/tables';

/** The first answer to a request, as it is replayed: its body as the bytes sent (JSON text). */
export interface StoredAnswer {
  status: number;
  body: string;
}

/**
 * A key another request holds: still running or died (no answer yet), or finished with its
 * answer. `resourceIds`: what the first request created, linked in the transaction that
 * created it; null while nothing is (then nothing was written).
 */
export interface HeldKey {
  fingerprint: string;
  answer: StoredAnswer | null;
  resourceIds: string[] | null;
}

export interface KeyTimes {
  /** How long a key is kept. */
  ttlMs: number;
  /** How long an unfinished claim holds its key before another request may take it over. */
  abandonedAfterMs: number;
}

/**
 * Claims `key` for a request, in one statement: a new key is inserted; an expired key, or
 * one whose request never finished and never linked what it created (its process died
 * before writing anything), is taken over. Answers null when
 * claimed, else the key as another request holds it. Between two replicas racing for the
 * same key, the primary key lets exactly one claim it.
 */
export async function claimKey(em: EntityManager, companyId: string, key: string, fingerprint: string, times: KeyTimes): Promise<HeldKey | null> {
  for (;;) {
    const claimed = await em.execute(
      `INSERT INTO ${IDEMPOTENCY_TABLE} AS k (company_id, key, fingerprint, claimed_at, expires_at)
       VALUES (?, ?, ?, now(), now() + make_interval(secs => ?))
       ON CONFLICT (company_id, key) DO UPDATE
         SET fingerprint = excluded.fingerprint, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at, response_status = NULL, response_body = NULL, resource_ids = NULL
         WHERE k.expires_at <= now() OR (k.response_status IS NULL AND k.resource_ids IS NULL AND k.claimed_at < now() - make_interval(secs => ?))
       RETURNING 1`,
      [companyId, key, fingerprint, times.ttlMs / 1000, times.abandonedAfterMs / 1000],
    );
    if (claimed.length > 0) return null;
    const held = await heldKey(em, companyId, key);
    // Released (a validation failure) between the two statements: claim again.
    if (held) return held;
  }
}

/** The key as stored, or null when there is none. */
export async function heldKey(em: EntityManager, companyId: string, key: string): Promise<HeldKey | null> {
  const [held]: { fingerprint: string; response_status: number | null; response_body: string | null; resource_ids: string[] | null }[] = await em.execute(
    `SELECT fingerprint, response_status, response_body, resource_ids FROM ${IDEMPOTENCY_TABLE} WHERE company_id = ? AND key = ?`,
    [companyId, key],
  );
  if (!held) return null;
  const answer = held.response_status === null ? null : { status: held.response_status, body: held.response_body ?? '' };
  return { fingerprint: held.fingerprint, answer, resourceIds: held.resource_ids };
}

/**
 * Links the records a request created to its key, in the transaction open on `em` that
 * creates them: once it commits, the key is answered from them, whatever happens next.
 */
export async function linkKey(em: EntityManager, companyId: string, key: string, resourceIds: string[]): Promise<void> {
  await em.execute(`UPDATE ${IDEMPOTENCY_TABLE} SET resource_ids = ?::uuid[] WHERE company_id = ? AND key = ?`, [`{${resourceIds.join(',')}}`, companyId, key]);
}

/** Stores the answer of `key`, unless it has one already (a replay answered it from its records first). */
export async function storeAnswer(em: EntityManager, companyId: string, key: string, answer: StoredAnswer): Promise<void> {
  await em.execute(`UPDATE ${IDEMPOTENCY_TABLE} SET response_status = ?, response_body = ? WHERE company_id = ? AND key = ? AND response_status IS NULL`, [answer.status, answer.body, companyId, key]);
}

/** Frees an unfinished claim that created nothing: the request's answer is not kept (failed validation, our failure). */
export async function releaseKey(em: EntityManager, companyId: string, key: string): Promise<void> {
  await em.execute(`DELETE FROM ${IDEMPOTENCY_TABLE} WHERE company_id = ? AND key = ? AND response_status IS NULL AND resource_ids IS NULL`, [companyId, key]);
}

/** Deletes expired keys. */
export async function deleteExpiredKeys(em: EntityManager): Promise<void> {
  await em.execute(`/* sweep:idempotency.expired */ DELETE FROM ${IDEMPOTENCY_TABLE} WHERE expires_at <= now()`);
}
