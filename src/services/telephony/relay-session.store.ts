import type { EntityManager } from '@mikro-orm/postgresql';
import { alone, hotStatement, type ViewReads } from '../../db/statements';
import { RELAY_SESSIONS_TABLE } from '../../db/tables';

/** A relay session's token, as read from its URL (relay-token.ts). */
export interface RelaySessionClaim {
  callId: string;
  nonce: string;
  expiresAt: Date;
}

const CLAIM = hotStatement<{ claimed: number }>(
  'relay-session-claim',
  `INSERT INTO ${RELAY_SESSIONS_TABLE} (nonce, call_id, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1 AS claimed`,
);

/**
 * Opens a relay session for a call, in one statement, or answers false. This is the one rule
 * of who may open a session: a token's nonce is used once (the primary key), and a call has at
 * most one open session (the unique index on open sessions), so a replayed URL and a second
 * concurrent session are both refused, across replicas. A session resumed after a drop first
 * has the row of the session it replaces closed (`makeWayForSession`), then claims here.
 */
export async function claimRelaySession(reads: ViewReads, claim: RelaySessionClaim): Promise<boolean> {
  const rows = await CLAIM(alone, reads, [claim.nonce, claim.callId, claim.expiresAt]);
  return rows.length > 0;
}

const CLOSE = hotStatement<never>('relay-session-close', `UPDATE ${RELAY_SESSIONS_TABLE} SET closed_at = now() WHERE nonce = ? AND closed_at IS NULL`);

/** The session of `nonce` is over: its call may have another (its nonce stays used). */
export async function closeRelaySession(reads: ViewReads, nonce: string): Promise<void> {
  await CLOSE(alone, reads, [nonce]);
}

/**
 * Makes way for a new session of a call whose session ended, in one statement, and answers
 * whether it may open: only while the call is `in-progress` and, when `maxResumes` is given
 * (a resume after a drop), while its `resumes` count is below it, counting one more. The
 * call's open session, if any, is closed: the replica that held its socket died without
 * closing it. Its nonce stays used, so its URL is still refused; only the token minted after
 * this can open the next session, and once it has, the rule of one open session holds again.
 */
export async function makeWayForSession(em: EntityManager, call: { id: string; companyId: string }, maxResumes: number | null): Promise<boolean> {
  const rows = await em.execute(
    `WITH way AS (
       UPDATE calls SET resumes = resumes + ?
       WHERE id = ? AND company_id = ? AND call_status = 'in-progress' AND (?::int IS NULL OR resumes < ?::int)
       RETURNING id
     ), closed AS (
       UPDATE ${RELAY_SESSIONS_TABLE} SET closed_at = now() WHERE call_id IN (SELECT id FROM way) AND closed_at IS NULL
     )
     SELECT id FROM way`,
    [maxResumes === null ? 0 : 1, call.id, call.companyId, maxResumes, maxResumes],
  );
  return rows.length > 0;
}

/** Forgets sessions whose token has expired and which are closed (an expired token is refused by its own signature check). */
export async function forgetRelaySessions(em: EntityManager, before: Date): Promise<void> {
  await em.execute(`DELETE FROM ${RELAY_SESSIONS_TABLE} WHERE expires_at < ? AND closed_at IS NOT NULL`, [before]);
}
