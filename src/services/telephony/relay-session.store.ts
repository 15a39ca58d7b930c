import type { EntityManager } from '@mikro-orm/postgresql';

/** Relay sessions (migration Migration20261127100000_relay_sessions). */
export const RELAY_SESSIONS_TABLE = 'relay_sessions';

/** A relay session's token, as read from its URL (relay-token.ts). */
export interface RelaySessionClaim {
  callId: string;
  nonce: string;
  expiresAt: Date;
}

/**
 * Opens a relay session for a call, in one statement, or answers false. This is the one rule
 * of who may open a session: a token's nonce is used once (the primary key), and a call has at
 * most one open session (the unique index on open sessions), so a replayed URL and a second
 * concurrent session are both refused, across replicas. A session resumed after a drop would
 * first close the row of the session it replaces (`closeRelaySession`), then claim here.
 */
export async function claimRelaySession(em: EntityManager, claim: RelaySessionClaim): Promise<boolean> {
  const rows = await em.execute(
    `INSERT INTO ${RELAY_SESSIONS_TABLE} (nonce, call_id, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1`,
    [claim.nonce, claim.callId, claim.expiresAt],
  );
  return rows.length > 0;
}

/** The session of `nonce` is over: its call may have another (its nonce stays used). */
export async function closeRelaySession(em: EntityManager, nonce: string): Promise<void> {
  await em.execute(`UPDATE ${RELAY_SESSIONS_TABLE} SET closed_at = now() WHERE nonce = ? AND closed_at IS NULL`, [nonce]);
}

/** Forgets sessions whose token has expired and which are closed (an expired token is refused by its own signature check). */
export async function forgetRelaySessions(em: EntityManager, before: Date): Promise<void> {
  await em.execute(`DELETE FROM ${RELAY_SESSIONS_TABLE} WHERE expires_at < ? AND closed_at IS NOT NULL`, [before]);
}
