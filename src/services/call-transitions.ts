import type { EntityManager } from '@mikro-orm/postgresql';
import { type CallStatus, LIVE_STATUSES } from '../entities/call.entity';
import type { LastCallStatus } from '../entities/contact.entity';
import { transcriptText } from './conversation/transcript';
import type { RecordKey } from './scope';
import type { StatusUpdate } from './telephony/telephony';

/** Statuses a call may be in for it to move to the key status (semantics: Calls). */
export const PREDECESSORS: Record<CallStatus, readonly CallStatus[]> = {
  'pstn-queued': [],
  ringing: ['pstn-queued'],
  'in-progress': ['pstn-queued', 'ringing'],
  completed: ['pstn-queued', 'ringing', 'in-progress'],
  busy: ['pstn-queued', 'ringing'],
  'no-answer': ['pstn-queued', 'ringing'],
  canceled: ['pstn-queued', 'ringing'],
  failed: ['pstn-queued', 'ringing', 'in-progress'],
};

/** The contact's `last_call_status` for each call status (docs/calls.md). */
const CONTACT_STATUS: Record<CallStatus, LastCallStatus> = {
  'pstn-queued': 'in-progress',
  ringing: 'in-progress',
  'in-progress': 'in-progress',
  completed: 'picked-up',
  busy: 'busy',
  'no-answer': 'no-answer',
  failed: 'unreachable',
  canceled: 'canceled',
};

/** What a stored transition tells the rest of the system. */
export interface Transitioned {
  id: string;
  companyId: string;
  campaignId: string | null;
  workspace: string;
  status: CallStatus;
}


/**
 * Stores one transition in one statement: the call is updated only if its current status
 * allows the new one (so duplicates and stale updates change nothing, even when two
 * replicas race), its terminal fields are stamped from its own row, and its contact
 * mirrors it, atomically. A terminal status's `disconnect_reason` is the update's, else the
 * one recorded while the call was live (the agent's relay session, docs/calls.md), else the
 * status itself. Returns null when nothing changed. Plain SQL: this runs for every
 * transition of every call, and the ORM's unit of work would triple its cost.
 */
export async function applyTransition(em: EntityManager, call: RecordKey, update: StatusUpdate, pricePerMinute: number, now: Date): Promise<Transitioned | null> {
  const terminal = !LIVE_STATUSES.includes(update.status);
  const answeredAt = update.status === 'in-progress' || update.status === 'completed' ? update.at : null;
  const contactStatus = terminal && update.disconnectReason === 'voicemail_reached' ? 'voicemail' : CONTACT_STATUS[update.status];
  const rows: { id: string; company_id: string; campaign_id: string | null; workspace_id: string; call_status: CallStatus }[] = await em.execute(
    `WITH answered AS (
       SELECT id, COALESCE(started_at, ?::timestamptz) AS started
       FROM calls WHERE id = ? AND company_id = ? AND call_status IN (?)
     ), timing AS (
       SELECT id, started, CASE WHEN ? THEN COALESCE(?::int, GREATEST(0, ROUND(EXTRACT(EPOCH FROM (?::timestamptz - started))))::int, 0) END AS duration
       FROM answered
     ), updated AS (
       UPDATE calls c SET
         call_status = ?, updated_at = ?,
         started_at = CASE WHEN ? THEN ?::timestamptz WHEN ? THEN t.started ELSE c.started_at END,
         ended_at = CASE WHEN ? THEN ?::timestamptz ELSE c.ended_at END,
         call_duration = COALESCE(t.duration, c.call_duration),
         cost = CASE WHEN ? THEN ROUND(t.duration / 60.0 * ?, 4) ELSE c.cost END,
         disconnect_reason = CASE WHEN ? THEN COALESCE(?, NULLIF(c.disconnect_reason, ''), ?) ELSE c.disconnect_reason END,
         latency = COALESCE(?::int, c.latency),
         transcript = COALESCE(?, c.transcript),
         transcript_object = COALESCE(?::jsonb, c.transcript_object),
         transcript_language = COALESCE(?, c.transcript_language)
       FROM timing t WHERE c.id = t.id AND c.company_id = ? AND c.call_status IN (?)
       RETURNING c.*
     ), mirrored AS (
       UPDATE contacts SET last_call_status = ?, last_call_at = COALESCE(u.started_at, u.created_at), last_call_duration = u.call_duration, updated_at = ?
       FROM updated u WHERE contacts.id = u.contact_id AND contacts.company_id = u.company_id
     )
     SELECT id, company_id, campaign_id, workspace_id, call_status FROM updated`,
    [
      answeredAt, call.id, call.companyId, [...PREDECESSORS[update.status]],
      terminal, update.durationS ?? null, update.at,
      update.status, now,
      update.status === 'in-progress', update.at, terminal,
      terminal, update.at,
      terminal, pricePerMinute,
      terminal, update.disconnectReason ?? null, update.status,
      update.latencyMs ?? null,
      update.transcript ? transcriptText(update.transcript.turns) : null,
      update.transcript ? JSON.stringify({ turns: update.transcript.turns }) : null,
      update.transcript?.language ?? null,
      call.companyId, [...PREDECESSORS[update.status]],
      contactStatus, now,
    ],
  );
  const row = rows[0];
  return row ? { id: row.id, companyId: row.company_id, campaignId: row.campaign_id, workspace: row.workspace_id, status: row.call_status } : null;
}
