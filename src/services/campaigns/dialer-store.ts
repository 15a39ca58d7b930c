import type { EntityManager } from '@mikro-orm/postgresql';
import { TERMINAL_STATUSES } from '../../entities/call.entity';
import type { RecordKey } from '../scope';

/**
 * The campaign dialer's reads and writes, in plain SQL: they run in bulk over thousands of
 * contacts per tick, which the ORM's unit of work would make several times slower. Every
 * function runs inside the tick's transaction, under the campaign's advisory lock.
 */

/** A campaign as the dialer needs it, in its stored (snake_case) shape. */
export interface CampaignRow {
  id: string;
  company_id: string;
  workspace: string;
  name: string;
  status: string;
  deleted_at: Date | null;
  ai_agent_id: string | null;
  agent_usable: boolean;
  outbound_number: string | null;
  outbound_country_code: string | null;
  webhook_id: string | null;
  time_zone: string;
  call_time_of_day_from: string;
  call_time_of_day_to: string;
  days_of_week: number[];
  started_at: string | null;
  ended_at: string | null;
  number_of_call_attempts: number[];
  retry_delay: number[];
  retry_delay_unit: string[];
  contacts_list_source: string[];
  contacts_list_tags: string[];
  contacts_list_categories: string[];
  agent_variables_contact_metadata_mapping: Record<string, unknown>;
  webhook_mapping_variables: Record<string, unknown>;
  webhook_mapping_variables_sources: Record<string, unknown>;
  allow_non_local_calls: boolean;
  max_concurrent_calls: number;
  call_progress: number;
  /** Raw SQL answers timestamps as text. */
  selected_at: string | null;
  [field: string]: unknown;
}

/** A campaign and its company: every statement below names both (docs/scaling.md). */
export type CampaignKey = Pick<CampaignRow, 'id' | 'company_id'>;

export async function loadCampaign(em: EntityManager, key: RecordKey): Promise<CampaignRow | null> {
  const [row] = await em.execute(
    `SELECT c.*, to_char(c.started_at, 'YYYY-MM-DD') AS started_at, to_char(c.ended_at, 'YYYY-MM-DD') AS ended_at,
            to_char(c.call_time_of_day_from, 'HH24:MI:SS') AS call_time_of_day_from,
            to_char(c.call_time_of_day_to, 'HH24:MI:SS') AS call_time_of_day_to,
            (a.id IS NOT NULL AND a.deleted_at IS NULL) AS agent_usable,
            p.phone_number AS outbound_number, p.country_code AS outbound_country_code
     FROM campaigns c
     LEFT JOIN ai_agents a ON a.id = c.ai_agent_id AND a.company_id = c.company_id
     LEFT JOIN phone_numbers p ON p.id = c.outbound_phone_number_id AND p.company_id = c.company_id
     WHERE c.id = ? AND c.company_id = ?`,
    [key.id, key.companyId],
  );
  return (row as CampaignRow | undefined) ?? null;
}

/**
 * Adds the contacts the campaign selects and has not selected yet, due now: its own
 * contacts (`campaign_id`) plus those matching every non-empty list filter (source, tag,
 * category); with no filter at all, every contact of the company matches. Only active,
 * undeleted contacts. One statement; returns how many joined.
 */
export async function selectContacts(em: EntityManager, c: CampaignRow, now: Date): Promise<number> {
  const filters = [
    [c.contacts_list_source, 'source_name'],
    [c.contacts_list_tags, 'tag_name'],
    [c.contacts_list_categories, 'category_name'],
  ] as const;
  const clauses = filters.filter(([values]) => values.length > 0).map(([, column]) => `ct.${column} IN (SELECT jsonb_array_elements_text(?::jsonb))`);
  const params = filters.filter(([values]) => values.length > 0).map(([values]) => JSON.stringify(values));
  const matching = clauses.length > 0 ? clauses.join(' AND ') : 'TRUE';
  const rows: { n: number }[] = await em.execute(
    `WITH added AS (
       INSERT INTO campaign_contacts (id, created_at, updated_at, company_id, campaign_id, contact_id, state, attempts, next_attempt_at)
       SELECT gen_random_uuid(), ?, ?, ct.company_id, ?, ct.id, 'queued', 0, ?
       FROM contacts ct
       WHERE ct.company_id = ? AND ct.deleted_at IS NULL AND ct.status = 'active'
         AND (ct.campaign_id = ? OR (${matching}))
       ON CONFLICT (campaign_id, contact_id) DO NOTHING
       RETURNING 1
     ) SELECT count(*)::int AS n FROM added`,
    [now, now, c.id, now, c.company_id, c.id, ...params],
  );
  await em.execute('UPDATE campaigns SET selected_at = ? WHERE id = ? AND company_id = ?', [now, c.id, c.company_id]);
  return rows[0]?.n ?? 0;
}

/** A live attempt whose call has ended: what counting it needs. */
export interface EndedAttempt {
  entry_id: string;
  attempts: number;
  contact_id: string;
  call_id: string;
  call_status: string;
  disconnect_reason: string;
  workspace_id: string;
}

/** Attempts in `calling` whose call reached a terminal status. */
export async function endedAttempts(em: EntityManager, c: CampaignKey): Promise<EndedAttempt[]> {
  return em.execute(
    `SELECT cc.id AS entry_id, cc.attempts, cc.contact_id, k.id AS call_id, k.call_status, k.disconnect_reason, k.workspace_id
     FROM campaign_contacts cc
     JOIN calls k ON k.id = cc.last_call_id AND k.company_id = cc.company_id
     WHERE cc.campaign_id = ? AND cc.company_id = ? AND cc.state = 'calling' AND k.call_status IN (?)`,
    [c.id, c.company_id, [...TERMINAL_STATUSES]],
  );
}

/** What becomes of an entry: queued again for a later attempt, or settled. */
export type EntryChange =
  | { id: string; state: 'queued'; nextAttemptAt: Date }
  | { id: string; state: 'settled'; outcome: string; reason: string | null };

/** Writes many entry changes in one statement. */
export async function applyChanges(em: EntityManager, c: CampaignKey, changes: EntryChange[], now: Date): Promise<void> {
  if (changes.length === 0) return;
  const rows = changes.map((c) =>
    c.state === 'queued'
      ? { id: c.id, state: c.state, next_attempt_at: c.nextAttemptAt.toISOString(), outcome: null, reason: null }
      : { id: c.id, state: c.state, next_attempt_at: null, outcome: c.outcome, reason: c.reason },
  );
  await em.execute(
    `UPDATE campaign_contacts cc SET state = r.state, next_attempt_at = r.next_attempt_at, outcome = r.outcome, reason = r.reason,
       settled_at = CASE WHEN r.state = 'settled' THEN ?::timestamptz END, updated_at = ?
     FROM jsonb_to_recordset(?::jsonb) AS r(id uuid, state text, next_attempt_at timestamptz, outcome text, reason text)
     WHERE cc.id = r.id AND cc.company_id = ?`,
    [now, now, JSON.stringify(rows), c.company_id],
  );
}

/** Attempts live now: the campaign's share of the concurrent-call limit in use. */
export async function liveAttempts(em: EntityManager, c: CampaignKey): Promise<number> {
  const [row] = await em.execute(`SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = ? AND company_id = ? AND state = 'calling'`, [c.id, c.company_id]);
  return (row as { n: number }).n;
}

/** A contact due for its next attempt, with why it may not be called. */
export interface DueEntry {
  entry_id: string;
  attempts: number;
  contact: Record<string, unknown> & { id: string; phone_number: string; number_country_code: string; status: string; deleted_at: string | null };
  suppressed: boolean;
}

/** Up to `limit` entries due at `now`, the longest waiting first. */
export async function dueEntries(em: EntityManager, c: CampaignKey, now: Date, limit: number): Promise<DueEntry[]> {
  return em.execute(
    `WITH due AS (
       SELECT id, company_id, contact_id, attempts, next_attempt_at FROM campaign_contacts
       WHERE campaign_id = ? AND company_id = ? AND state = 'queued' AND next_attempt_at <= ?
       ORDER BY next_attempt_at, id
       LIMIT ?
     )
     SELECT due.id AS entry_id, due.attempts, to_jsonb(ct) AS contact,
            EXISTS (SELECT 1 FROM do_not_call_numbers d WHERE d.company_id = due.company_id AND d.phone_number = ct.phone_number) AS suppressed
     FROM due JOIN contacts ct ON ct.id = due.contact_id AND ct.company_id = due.company_id
     ORDER BY due.next_attempt_at, due.id`,
    [c.id, c.company_id, now, limit],
  );
}

/** Marks entries as calling their stored attempt, each with its call. */
export async function markCalling(em: EntityManager, c: CampaignKey, placed: { entryId: string; callId: string; attempt: number }[], now: Date): Promise<void> {
  if (placed.length === 0) return;
  await em.execute(
    `UPDATE campaign_contacts cc SET state = 'calling', attempts = r.attempt, last_call_id = r.call_id, next_attempt_at = NULL, updated_at = ?
     FROM jsonb_to_recordset(?::jsonb) AS r(entry_id uuid, call_id uuid, attempt int)
     WHERE cc.id = r.entry_id AND cc.company_id = ?`,
    [now, JSON.stringify(placed.map((p) => ({ entry_id: p.entryId, call_id: p.callId, attempt: p.attempt }))), c.company_id],
  );
}

/** Settles every entry still waiting (the campaign's last calling date is over). */
export async function expireQueued(em: EntityManager, c: CampaignKey, now: Date): Promise<void> {
  await em.execute(
    `UPDATE campaign_contacts SET state = 'settled', outcome = 'expired', reason = 'campaign_ended', next_attempt_at = NULL, settled_at = ?, updated_at = ?
     WHERE campaign_id = ? AND company_id = ? AND state = 'queued'`,
    [now, now, c.id, c.company_id],
  );
}

/**
 * Stores `call_progress` (percent of selected contacts settled, rounded down) and, once
 * every selected contact is settled, status `completed` with 100. A campaign with no
 * contact selected yet keeps waiting for some. Returns the progress and whether it completed.
 */
export async function recordProgress(em: EntityManager, c: CampaignRow, now: Date): Promise<{ progress: number; completed: boolean }> {
  const [counts] = await em.execute(
    `SELECT count(*)::int AS selected, count(*) FILTER (WHERE state = 'settled')::int AS settled FROM campaign_contacts WHERE campaign_id = ? AND company_id = ?`,
    [c.id, c.company_id],
  );
  const { selected, settled } = counts as { selected: number; settled: number };
  const progress = selected === 0 ? 0 : Math.floor((settled * 100) / selected);
  const completed = selected > 0 && settled === selected && c.status === 'active';
  if (progress !== c.call_progress || completed) {
    await em.execute(`UPDATE campaigns SET call_progress = ?, status = ?, updated_at = ? WHERE id = ? AND company_id = ?`, [
      progress, completed ? 'completed' : c.status, now, c.id, c.company_id,
    ]);
  }
  return { progress, completed };
}

/** Campaigns with work for the dialer at `now`: due contacts (active ones), or ended calls to count (active or paused). */
export async function campaignsWithWork(em: EntityManager, now: Date): Promise<{ id: string; company_id: string }[]> {
  return em.execute(
    `/* sweep:campaigns.with-work */ SELECT c.id, c.company_id FROM campaigns c
     WHERE c.deleted_at IS NULL AND (
       (c.status = 'active' AND (c.selected_at IS NULL
          OR EXISTS (SELECT 1 FROM campaign_contacts cc WHERE cc.campaign_id = c.id AND cc.state = 'queued' AND cc.next_attempt_at <= ?)))
       OR EXISTS (SELECT 1 FROM campaign_contacts cc JOIN calls k ON k.id = cc.last_call_id
                  WHERE cc.campaign_id = c.id AND cc.state = 'calling' AND k.call_status IN (?)))`,
    [now, [...TERMINAL_STATUSES]],
  );
}

/** Campaign counters for the stats operation (docs/campaigns.md), per campaign. */
export interface StatsRow {
  campaign_id: string;
  selected: number;
  settled: number;
  picked_up: number;
  failed: number;
  in_progress: number;
  queued: number;
  skipped: number;
  next_attempt_at: Date | null;
  skipped_reasons: Record<string, number>;
}

export async function statsOf(em: EntityManager, companyId: string, campaignIds: readonly string[]): Promise<Map<string, StatsRow>> {
  if (campaignIds.length === 0) return new Map();
  const rows: StatsRow[] = await em.execute(
    `SELECT campaign_id,
            count(*)::int AS selected,
            count(*) FILTER (WHERE state = 'settled')::int AS settled,
            count(*) FILTER (WHERE outcome = 'picked-up')::int AS picked_up,
            count(*) FILTER (WHERE outcome = 'failed')::int AS failed,
            count(*) FILTER (WHERE state = 'calling')::int AS in_progress,
            count(*) FILTER (WHERE state = 'queued')::int AS queued,
            count(*) FILTER (WHERE outcome = 'skipped')::int AS skipped,
            min(next_attempt_at) FILTER (WHERE state = 'queued') AS next_attempt_at,
            COALESCE(jsonb_object_agg(reason, n) FILTER (WHERE outcome = 'skipped'), '{}'::jsonb) AS skipped_reasons
     FROM (SELECT cc.*, count(*) OVER (PARTITION BY campaign_id, outcome, reason) AS n FROM campaign_contacts cc WHERE company_id = ? AND campaign_id IN (?)) s
     GROUP BY campaign_id`,
    [companyId, [...campaignIds]],
  );
  return new Map(rows.map((r) => [r.campaign_id, r]));
}
