import type { EntityDictionary, EntityManager } from '@mikro-orm/postgresql';
import { Campaign, CampaignContact, Contact, type PhoneNumber } from '../../entities';
import { type CallStatus, TERMINAL_STATUSES } from '../../entities/call.entity';
import { tryLockUntilCommit } from '../platform/advisory-lock.store';
import { type CampaignView, campaignContract } from './campaign.contract';
import { type StoredView, type ViewReads, viewQuery } from '../../db/statements';
import type { RecordKey } from '../shared/scope';

/** A contact as `to_jsonb(ct)` answers it, for `em.map`. */
type ContactRow = EntityDictionary<Contact>;

/**
 * The campaign dialer's reads and writes. The campaign itself is read through the ORM, once
 * per tick; the rest is plain SQL: it runs in bulk over thousands of contacts per tick,
 * which the ORM's unit of work would make several times slower. Every function answers
 * typed camelCase values and runs inside the tick's transaction, under the campaign's
 * advisory lock (`tryLockCampaign`). Every statement names the campaign's company too
 * (docs/scaling.md): the engines address a campaign by its `RecordKey`.
 */

/** Takes the campaign's tick lock for the transaction open on `em`; false when another tick holds it. */
export const tryLockCampaign = (em: EntityManager, campaignId: string): Promise<boolean> => tryLockUntilCommit(em, `campaign:${campaignId}`);

/**
 * The campaign as a tick reads it: with its agent and outbound number, which decide whether
 * it can call. The joined agent and number name the company too (a campaign's are always its
 * company's own).
 */
export function loadCampaign(em: EntityManager, key: RecordKey): Promise<Campaign | null> {
  return em.findOne(
    Campaign,
    { id: key.id, company: key.companyId },
    {
      populate: ['aiAgent', 'outboundPhoneNumber'],
      populateWhere: { aiAgent: { company: key.companyId }, outboundPhoneNumber: { company: key.companyId } },
    },
  );
}

/** A piece of SQL and its parameters, in order. */
interface Fragment {
  sql: string;
  params: unknown[];
}

/** A contact `ct` the dialer may call at all: not deleted, and active. */
const ACTIVE = `ct.deleted_at IS NULL AND ct.status = 'active'`;

/**
 * The contacts `ct` the campaign's selection matches, whatever their status: its own
 * contacts (`campaign_id`) plus those matching every non-empty list filter (source, tag,
 * category); with no filter at all, every contact of the company matches. Undeleted only.
 */
function selection(c: Campaign): Fragment {
  const filters = [
    [c.contactsListSource, 'source_name'],
    [c.contactsListTags, 'tag_name'],
    [c.contactsListCategories, 'category_name'],
  ] as const;
  const used = filters.filter(([values]) => values.length > 0);
  // `= ANY(ARRAY(…))`, a value list the indexes on the column take (a bitmap scan beside the campaign's own contacts), not a semi-join.
  const matching = used.length > 0 ? used.map(([, column]) => `ct.${column} = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)))`).join(' AND ') : 'TRUE';
  return {
    sql: `ct.company_id = ? AND ct.deleted_at IS NULL AND (ct.campaign_id = ? OR (${matching}))`,
    params: [c.company.id, c.id, ...used.map(([values]) => JSON.stringify(values))],
  };
}

/** What decides whether the dialer calls a selected contact: the campaign's rule on non-local numbers and its outbound number's country. */
export interface SkipRules {
  allowNonLocalCalls: boolean;
  /** Country calling code of the outbound number. */
  countryCode: string;
}

/** Why the dialer skips a contact (campaign_contacts.reason), and why the audience preview counts it out. */
export type SkipReason = 'contact_inactive' | 'do_not_call' | 'non_local';

/**
 * Why the dialer skips contact `ct` (a `SkipReason`), or NULL when it calls it: deleted (its
 * row gone too: an entry has no foreign key to it) or not active, then on the company's
 * do-not-call list, then (when the campaign forbids them) a number of another country than
 * the outbound number's. The one statement of these rules: the dialer reads it for each due
 * contact, the audience preview counts with it.
 */
function skipReason({ allowNonLocalCalls, countryCode }: SkipRules): Fragment {
  return {
    sql: `CASE WHEN ct.id IS NULL OR NOT (${ACTIVE}) THEN 'contact_inactive'
               WHEN EXISTS (SELECT 1 FROM do_not_call_numbers d WHERE d.company_id = ct.company_id AND d.phone_number = ct.phone_number) THEN 'do_not_call'
               WHEN NOT ?::boolean AND ct.number_country_code <> ? THEN 'non_local' END`,
    params: [allowNonLocalCalls, countryCode],
  };
}

/** The number a campaign read with `loadCampaign` dials from: its outbound number, when it is one of its company's; else null. */
export function outboundNumberOf(c: Campaign): PhoneNumber | null {
  const number = c.outboundPhoneNumber?.unwrap();
  return number && number.company.id === c.company.id ? number : null;
}

/**
 * How far back a refresh pass looks before the previous pass began: contacts written by a
 * transaction still in flight when it began (stamped earlier, committed later), and replicas'
 * clocks apart by less than this, are still considered.
 */
const CHANGED_MARGIN_MS = 5 * 60_000;

/** What one slice of a selection pass did. */
export interface SelectionSlice {
  /** Contacts that joined the selection. */
  added: number;
  /** The pass read the company's last contact: `selected_at` now holds its start. */
  done: boolean;
}

/** How many contacts the slices of a selection pass read: the first `first`, each later one as many as all before it, at most `max`. */
export interface SliceSizes {
  first: number;
  max: number;
}

/** The size of the pass's next slice, `read` contacts into it. */
const nextSlice = ({ first, max }: SliceSizes, read: number): number => Math.max(first, Math.min(max, read));

/**
 * One slice of the campaign's selection pass (docs/campaigns.md, "Which contacts"): the next
 * live contacts of the company after the pass's cursor, in `contacts_live_index`'s order
 * (`created_at`, `id`), of which those the campaign selects (`selection`), active ones, and
 * has not selected yet join, due now. The first slice of a pass reads `sizes.first`
 * contacts, each later one as many as the pass has read (doubling), up to `sizes.max`: the
 * first calls go out after a small slice, and a large selection takes few ticks. A full pass
 * (`selected_at` null) considers every contact; a refresh only those changed since the
 * previous pass began (`updated_at`, with a margin). One statement reads the slice, adds its
 * contacts and moves the cursor; the slice that reads the last contact stamps `selected_at`
 * with the pass's start. The cursor moves only while the campaign's selection is as the tick
 * read it: an edit committed meanwhile (which resets it) restarts the pass. Each slice is
 * bounded, so a tick selects a slice and dials, however many contacts the company has.
 * "Not selected yet" is `ON CONFLICT DO NOTHING` on the entries' primary key (`campaign_id`,
 * `contact_id`), whose arbiter check probes the key for each contact whatever the planner
 * thinks: an anti-join written with NOT EXISTS was planned, on statistics not yet counting the
 * campaign's new entries, as a nested loop reading every entry of the campaign for each
 * contact (85 s for a slice of 10,000 over 40,000 entries, against 70 ms). A fresh pass
 * (`holdPass`) has no entry to meet and inserts plainly, without the speculative insertion's
 * check. The slice's entries are inserted in their contacts' id order, the key's: each leaf
 * page of the key is then visited once per slice, while it is in cache, instead of at random
 * once per entry.
 */
export async function selectContacts(em: EntityManager, c: Campaign, now: Date, sizes: SliceSizes): Promise<SelectionSlice> {
  const pass = await holdPass(em, c);
  if (!pass) return { added: 0, done: false };
  const selected = selection(c);
  const since = c.selectedAt === null ? null : new Date(c.selectedAt.getTime() - CHANGED_MARGIN_MS);
  const startedAt = c.selectionStartedAt ?? now;
  const readBefore = c.selectionStartedAt === null ? 0 : (c.selectionRead ?? 0);
  const size = readBefore === 0 ? sizes.first : nextSlice(sizes, readBefore);
  const cursor = (column: string, none: string) => `COALESCE((SELECT ${column} FROM campaigns WHERE id = ? AND company_id = ?), ${none})`;
  const notSelected = pass.fresh ? '' : 'ON CONFLICT (campaign_id, contact_id) DO NOTHING';
  const [row] = await em.execute<{ added: number; read: number; moved: number }[]>(
    `WITH slice AS (
       SELECT ct.id, ct.company_id, ct.created_at, ct.updated_at, ct.deleted_at, ct.status, ct.campaign_id, ct.source_name, ct.tag_name, ct.category_name
       FROM contacts ct
       WHERE ct.company_id = ? AND ct.deleted_at IS NULL
         AND (ct.created_at, ct.id) > (${cursor('selection_after_created_at', "'-infinity'::timestamptz")}, ${cursor('selection_after_id', "'00000000-0000-0000-0000-000000000000'::uuid")})
       ORDER BY ct.created_at, ct.id
       LIMIT ?
     ), added AS (
       INSERT INTO campaign_contacts (created_at, updated_at, company_id, campaign_id, contact_id, state, attempts, next_attempt_at)
       SELECT ?, ?, ct.company_id, ?, ct.id, 'queued', 0, ?
       FROM slice ct
       WHERE ${selected.sql} AND ${ACTIVE} AND ct.updated_at >= COALESCE(?::timestamptz, '-infinity')
       ORDER BY ct.id
       ${notSelected}
       RETURNING 1
     ), moved AS (
       UPDATE campaigns SET
         selected_at = CASE WHEN pass.done THEN ?::timestamptz ELSE campaigns.selected_at END,
         selection_started_at = CASE WHEN pass.done THEN NULL ELSE ?::timestamptz END,
         selection_after_created_at = CASE WHEN pass.done THEN NULL ELSE last.created_at END,
         selection_after_id = CASE WHEN pass.done THEN NULL ELSE last.id END,
         selection_read = CASE WHEN pass.done THEN NULL ELSE ?::int + pass.read END,
         selection_fresh = CASE WHEN pass.done THEN NULL ELSE ?::boolean END,
         entries_selected = campaigns.entries_selected + (SELECT count(*) FROM added)
       FROM (SELECT count(*)::int AS read, count(*) < ? AS done FROM slice) pass
         LEFT JOIN (SELECT created_at, id FROM slice ORDER BY created_at DESC, id DESC LIMIT 1) last ON true
       WHERE campaigns.id = ? AND campaigns.company_id = ?
       RETURNING 1
     ) SELECT (SELECT count(*) FROM added)::int AS added, (SELECT count(*) FROM slice)::int AS read, (SELECT count(*) FROM moved)::int AS moved`,
    [c.company.id, c.id, c.company.id, c.id, c.company.id, size, now, now, c.id, now, ...selected.params, since, startedAt, startedAt, readBefore, pass.fresh, size, c.id, c.company.id],
  );
  return { added: row?.added ?? 0, done: (row?.read ?? 0) < size && (row?.moved ?? 0) > 0 };
}

/** The campaign's selection pass as `holdPass` found it locked. */
interface HeldPass {
  /** No entry of the campaign can be of a contact the pass has still to read: its slices need not look for one. */
  fresh: boolean;
}

/**
 * Locks the campaign's row until the tick commits, and answers its pass: null when the row is
 * gone (deleted), or its pass is no longer the one `c` was read with (an edit committed
 * since restarted it: the next tick starts the new pass). The lock is what the campaign's
 * entries have in place of a foreign key (docs/campaigns.md, "Which contacts"): a DELETE of the
 * campaign waits for this tick, then its trigger deletes the entries the tick added; an edit
 * waits too, so the pass cannot change under the slice. A pass is fresh when it began (its
 * first slice) with no entry of the campaign at all: entries are only added by the slices
 * (under the tick lock), and a slice reads only contacts after those its pass has read.
 */
async function holdPass(em: EntityManager, c: Campaign): Promise<HeldPass | null> {
  const [row] = await em.execute<{ same: boolean; started: boolean; fresh: boolean | null; empty: boolean }[]>(
    `SELECT selected_at IS NOT DISTINCT FROM ?::timestamptz AND selection_started_at IS NOT DISTINCT FROM ?::timestamptz AS same,
            selection_started_at IS NOT NULL AS started, selection_fresh AS fresh,
            NOT EXISTS (SELECT 1 FROM campaign_contacts cc WHERE cc.campaign_id = campaigns.id AND cc.company_id = campaigns.company_id) AS empty
     FROM campaigns WHERE id = ? AND company_id = ? FOR NO KEY UPDATE`,
    [c.selectedAt, c.selectionStartedAt, c.id, c.company.id],
  );
  if (!row?.same) return null;
  return { fresh: row.started ? row.fresh === true : row.empty };
}

/** Whether the campaign's selection is every live contact of its company: no list filter (its own contacts are among them). */
export const selectsEveryContact = (c: Campaign): boolean => c.contactsListSource.length + c.contactsListTags.length + c.contactsListCategories.length === 0;

/** Who a campaign's selection matches now, up to a limit, and who of them the dialer would skip, by reason. */
export interface AudienceCounts {
  /** Matched contacts counted: every one, or the first `limit` in the dialer's order when `capped`. */
  counted: number;
  /** The selection matches more than `limit` contacts. */
  capped: boolean;
  callable: number;
  skipped: Record<SkipReason, number>;
}

/** A row of `audienceCounts`: a skip reason (null: called; `beyond`: the contact past the limit) and how many of the counted contacts have it. */
interface AudienceCountsRow {
  skip: SkipReason | 'beyond' | null;
  n: number;
}

/**
 * Counts the first `limit` contacts `selection` matches, in the dialer's order (oldest first,
 * as its selection pass reads them), each with its `skipReason` under `rules`, in one
 * statement: one row per reason (NULL: called), so each contact's reason is worked out once.
 * It reads one contact more than `limit`, counted apart (`beyond`), to tell whether the
 * selection matches more: a bounded read however many contacts the company has (the live
 * contacts' index in order for a broad selection, the filters' indexes for a narrow one).
 * Without `rules` (no outbound number yet) the non-local rule cannot apply.
 */
export async function audienceCounts(em: EntityManager, c: Campaign, rules: SkipRules | null, limit: number): Promise<AudienceCounts> {
  const selected = selection(c);
  const skip = skipReason(rules ?? { allowNonLocalCalls: true, countryCode: '' });
  const rows = await em.execute<AudienceCountsRow[]>(
    `SELECT CASE WHEN ordinal > ? THEN 'beyond' ELSE skip END AS skip, count(*)::int AS n
     FROM (SELECT ${skip.sql} AS skip, row_number() OVER (ORDER BY ct.created_at, ct.id) AS ordinal
           FROM contacts ct WHERE ${selected.sql} ORDER BY ct.created_at, ct.id LIMIT ?) s
     GROUP BY 1`,
    [limit, ...skip.params, ...selected.params, limit + 1],
  );
  const of = (reason: AudienceCountsRow['skip']) => rows.find((r) => r.skip === reason)?.n ?? 0;
  const callable = of(null);
  const skipped = { contact_inactive: of('contact_inactive'), do_not_call: of('do_not_call'), non_local: of('non_local') };
  return { counted: callable + skipped.contact_inactive + skipped.do_not_call + skipped.non_local, capped: of('beyond') > 0, callable, skipped };
}

/** Up to `limit` of the contacts the dialer would call, newest first (the listing's order). */
export async function audienceSample(em: EntityManager, c: Campaign, rules: SkipRules | null, limit: number): Promise<Contact[]> {
  if (limit === 0) return [];
  const selected = selection(c);
  const skip = skipReason(rules ?? { allowNonLocalCalls: true, countryCode: '' });
  const rows = await em.execute<{ contact: ContactRow }[]>(
    `SELECT to_jsonb(ct) AS contact FROM contacts ct WHERE ${selected.sql} AND (${skip.sql}) IS NULL ORDER BY ct.created_at DESC, ct.id DESC LIMIT ?`,
    [...selected.params, ...skip.params, limit],
  );
  return rows.map((r) => em.map(Contact, r.contact));
}

/** A live attempt whose call has ended: what counting it needs (its entry is its contact's in the campaign). */
export interface EndedAttempt {
  attempts: number;
  contactId: string;
  callId: string;
  callStatus: CallStatus;
  disconnectReason: string;
  workspace: string;
}

/** `endedAttempts`'s row. */
interface EndedAttemptRow {
  attempts: number;
  contact_id: string;
  call_id: string;
  call_status: CallStatus;
  disconnect_reason: string;
  workspace_id: string;
}

/** Attempts in `calling` whose call reached a terminal status. */
export async function endedAttempts(em: EntityManager, campaign: RecordKey): Promise<EndedAttempt[]> {
  const rows = await em.execute<EndedAttemptRow[]>(
    `SELECT cc.attempts, cc.contact_id, k.id AS call_id, k.call_status, k.disconnect_reason, k.workspace_id
     FROM campaign_contacts cc
     JOIN calls k ON k.id = cc.last_call_id AND k.company_id = cc.company_id
     WHERE cc.campaign_id = ? AND cc.company_id = ? AND cc.state = 'calling' AND k.call_status IN (?)`,
    [campaign.id, campaign.companyId, [...TERMINAL_STATUSES]],
  );
  return rows.map((r) => ({
    attempts: r.attempts,
    contactId: r.contact_id,
    callId: r.call_id,
    callStatus: r.call_status,
    disconnectReason: r.disconnect_reason,
    workspace: r.workspace_id,
  }));
}

/** What becomes of the entry of a contact: queued again for a later attempt, or settled. */
export type EntryChange = { contactId: string; state: 'queued'; nextAttemptAt: Date } | { contactId: string; state: 'settled'; outcome: string; reason: string | null };

/**
 * Each record of an entry write names the entry's whole key, campaign and contact, and the
 * statement joins the entries on it: a nested loop over the key's index, one entry a record.
 * Naming the campaign once, as a constant, lets the planner read the campaign's entries first,
 * all of them, by its statistics, which may not know of the campaign yet (a selection adds
 * a hundred thousand entries between two ANALYZEs).
 */
const KEYED = 'cc.campaign_id = r.campaign_id AND cc.contact_id = r.contact_id';

/**
 * The end of a statement whose CTE `changed` answers the `state` of each entry it changed:
 * adds those it settled to the campaign's kept count (`recordProgress`).
 */
const COUNT_SETTLED = `UPDATE campaigns SET entries_settled = entries_settled + s.n
     FROM (SELECT count(*)::int AS n FROM changed WHERE state = 'settled') s
     WHERE id = ? AND company_id = ? AND s.n > 0`;

/**
 * Writes many entry changes of the campaign in one statement: a settled entry is stamped
 * settled at `now`. Each change is of an entry its tick found calling (an ended attempt) or
 * queued (a skip), never of a settled one, so the changes to `settled` are what the campaign's
 * count of settled entries gains. The statement names no condition on the entry's state: by
 * the column's statistics late in a campaign, one made the planner scan every entry for each
 * write instead of looking up each record's key.
 */
export async function applyChanges(em: EntityManager, campaign: RecordKey, changes: EntryChange[], now: Date): Promise<void> {
  if (changes.length === 0) return;
  const rows = changes.map((c) =>
    c.state === 'queued'
      ? { campaign_id: campaign.id, contact_id: c.contactId, state: c.state, next_attempt_at: c.nextAttemptAt.toISOString(), outcome: null, reason: null, settled_at: null }
      : { campaign_id: campaign.id, contact_id: c.contactId, state: c.state, next_attempt_at: null, outcome: c.outcome, reason: c.reason, settled_at: now.toISOString() },
  );
  await em.execute(
    `WITH changed AS (
       UPDATE campaign_contacts cc SET state = r.state, next_attempt_at = r.next_attempt_at, outcome = r.outcome, reason = r.reason,
         settled_at = r.settled_at, updated_at = ?
       FROM jsonb_to_recordset(?::jsonb) AS r(campaign_id uuid, contact_id uuid, state text, next_attempt_at timestamptz, outcome text, reason text, settled_at timestamptz)
       WHERE ${KEYED} AND cc.company_id = ?
       RETURNING cc.state
     ) ${COUNT_SETTLED}`,
    [now, JSON.stringify(rows), campaign.companyId, campaign.id, campaign.companyId],
  );
}

/**
 * A contact due for its next attempt, with why the dialer skips it (null: it calls it). A
 * skipped entry's contact is null when its row is gone (a DELETE that raced the selection
 * that added the entry: docs/campaigns.md, "Which contacts").
 */
export type DueEntry = { contactId: string; attempts: number } & ({ skip: null; contact: Contact } | { skip: SkipReason; contact: Contact | null });

/**
 * Up to `limit` entries due at `now`, the longest waiting first, each with its `skipReason`
 * under `rules`. The contacts come as entities of `em` (mapped from their rows), as the
 * variable mappings read them. Entries due at the same instant (a slice of a selection pass:
 * up to `CAMPAIGN_SELECTION_SLICE_MAX` of them) are taken in the queue index's order, which
 * the index scan stops in after `limit`: ordered by anything more, every read sorted the whole
 * slice's queued entries for its first `limit` (36 ms, on both cores, for a slice of 100,000).
 */
export async function dueEntries(em: EntityManager, campaign: RecordKey, rules: SkipRules, now: Date, limit: number): Promise<DueEntry[]> {
  const skip = skipReason(rules);
  const rows = await em.execute<({ contact_id: string; attempts: number } & ({ contact: ContactRow; skip: null } | { contact: ContactRow | null; skip: SkipReason }))[]>(
    `WITH due AS (
       SELECT company_id, contact_id, attempts, next_attempt_at FROM campaign_contacts
       WHERE campaign_id = ? AND company_id = ? AND state = 'queued' AND next_attempt_at <= ?
       ORDER BY next_attempt_at
       LIMIT ?
     )
     SELECT due.contact_id, due.attempts, to_jsonb(ct) AS contact, ${skip.sql} AS skip
     FROM due LEFT JOIN contacts ct ON ct.id = due.contact_id AND ct.company_id = due.company_id
     ORDER BY due.next_attempt_at, due.contact_id`,
    [campaign.id, campaign.companyId, now, limit, ...skip.params],
  );
  return rows.map((r) =>
    r.skip === null
      ? { contactId: r.contact_id, attempts: r.attempts, skip: null, contact: em.map(Contact, r.contact) }
      : { contactId: r.contact_id, attempts: r.attempts, skip: r.skip, contact: r.contact && em.map(Contact, r.contact) },
  );
}

/** Attempts live now: the campaign's share of the concurrent-call limit in use. */
export async function liveAttempts(em: EntityManager, campaign: RecordKey): Promise<number> {
  return em.count(CampaignContact, { campaign: campaign.id, company: campaign.companyId, state: 'calling' });
}

/** Marks entries of the campaign (by contact) as calling their stored attempt, each with its call. */
export async function markCalling(em: EntityManager, campaign: RecordKey, placed: { contactId: string; callId: string; attempt: number }[], now: Date): Promise<void> {
  if (placed.length === 0) return;
  await em.execute(
    `UPDATE campaign_contacts cc SET state = 'calling', attempts = r.attempt, last_call_id = r.call_id, next_attempt_at = NULL, updated_at = ?
     FROM jsonb_to_recordset(?::jsonb) AS r(campaign_id uuid, contact_id uuid, call_id uuid, attempt int)
     WHERE ${KEYED} AND cc.company_id = ?`,
    [now, JSON.stringify(placed.map((p) => ({ campaign_id: campaign.id, contact_id: p.contactId, call_id: p.callId, attempt: p.attempt }))), campaign.companyId],
  );
}

/** Settles every entry still waiting (the campaign's last calling date is over). */
export async function expireQueued(em: EntityManager, campaign: RecordKey, now: Date): Promise<void> {
  await em.execute(
    `WITH changed AS (
       UPDATE campaign_contacts SET state = 'settled', outcome = 'expired', reason = 'campaign_ended', next_attempt_at = NULL, settled_at = ?, updated_at = ?
       WHERE campaign_id = ? AND company_id = ? AND state = 'queued'
       RETURNING state
     ) ${COUNT_SETTLED}`,
    [now, now, campaign.id, campaign.companyId, campaign.id, campaign.companyId],
  );
}

/**
 * Stores `call_progress` (percent of selected contacts settled, rounded down, from the
 * campaign's kept counts: `entryCounts`) and, once every selected contact is settled and no
 * selection pass is under way (`selecting`), status `completed` with 100. A campaign with no
 * contact selected yet keeps waiting for some. Returns the progress and whether it completed.
 */
export async function recordProgress(em: EntityManager, c: Campaign, now: Date, selecting: boolean): Promise<{ progress: number; completed: boolean }> {
  const { selected, settled } = await entryCounts(em, c);
  const progress = selected === 0 ? 0 : Math.floor((settled * 100) / selected);
  const completed = selected > 0 && settled === selected && c.status === 'active' && !selecting;
  if (progress !== c.callProgress || completed) {
    await em.nativeUpdate(Campaign, { id: c.id, company: c.company.id }, { callProgress: progress, status: completed ? 'completed' : c.status, updatedAt: now });
  }
  return { progress, completed };
}

/**
 * The campaign's kept counts of selected and settled entries (`entries_selected`,
 * `entries_settled`); the first time (null: a campaign from before them), its entries
 * counted and the counts kept. Its row is locked before they are counted, by a statement of
 * its own: every other writer of the counts (the trigger deleting the entries of contacts
 * deleted outright) updates that row, so the count's snapshot sees each such writer whole,
 * or the writer, waiting for this tick, finds the counts kept and takes its entries off them.
 */
async function entryCounts(em: EntityManager, c: Campaign): Promise<{ selected: number; settled: number }> {
  const key = [c.id, c.company.id];
  const [kept] = await em.execute<{ selected: number | null; settled: number | null }[]>(
    'SELECT entries_selected AS selected, entries_settled AS settled FROM campaigns WHERE id = ? AND company_id = ?',
    key,
  );
  if (kept && kept.selected !== null && kept.settled !== null) return { selected: kept.selected, settled: kept.settled };
  await em.execute('SELECT 1 FROM campaigns WHERE id = ? AND company_id = ? FOR NO KEY UPDATE', key);
  const [counted] = await em.execute<{ selected: number; settled: number }[]>(
    `UPDATE campaigns SET entries_selected = n.selected, entries_settled = n.settled
     FROM (SELECT count(*)::int AS selected, (count(*) FILTER (WHERE state = 'settled'))::int AS settled FROM campaign_contacts WHERE campaign_id = ? AND company_id = ?) n
     WHERE id = ? AND company_id = ?
     RETURNING n.selected, n.settled`,
    [...key, ...key],
  );
  return counted ?? { selected: 0, settled: 0 };
}

/**
 * Campaigns with work for the dialer at `now`: a selection to take or go on with, due contacts (active ones), or ended calls to
 * count (active or paused). A named sweep across companies (docs/scaling.md).
 */
export async function campaignsWithWork(em: EntityManager, now: Date): Promise<RecordKey[]> {
  const rows = await em.execute<{ id: string; company_id: string }[]>(
    `/* sweep:campaigns.with-work */ SELECT c.id, c.company_id FROM campaigns c
     WHERE c.deleted_at IS NULL AND (
       (c.status = 'active' AND (c.selected_at IS NULL OR c.selection_started_at IS NOT NULL
          OR EXISTS (SELECT 1 FROM campaign_contacts cc WHERE cc.campaign_id = c.id AND cc.state = 'queued' AND cc.next_attempt_at <= ?)))
       OR EXISTS (SELECT 1 FROM campaign_contacts cc JOIN calls k ON k.id = cc.last_call_id
                  WHERE cc.campaign_id = c.id AND cc.state = 'calling' AND k.call_status IN (?)))`,
    [now, [...TERMINAL_STATUSES]],
  );
  return rows.map((r) => ({ id: r.id, companyId: r.company_id }));
}

/** A campaign's counters over its selected contacts (docs/campaigns.md). */
export interface CampaignCounts {
  selected: number;
  settled: number;
  pickedUp: number;
  failed: number;
  inProgress: number;
  queued: number;
  skipped: number;
  /** The earliest attempt waiting, window aside. */
  nextAttemptAt: Date | null;
  /** Skipped contacts by reason: `do_not_call`, `non_local`, `contact_inactive`. */
  skippedReasons: Record<string, number>;
}

/** `countsOf`'s row: one campaign's counts (`next_attempt_at` as PostgreSQL writes a timestamptz). */
interface CountsRow {
  campaign_id: string;
  selected: number;
  settled: number;
  picked_up: number;
  failed: number;
  in_progress: number;
  queued: number;
  skipped: number;
  next_attempt_at: string | null;
  skipped_reasons: Record<string, number>;
}

/** The counters of each campaign, in one query; campaigns with no contact selected are left out. */
export async function countsOf(em: EntityManager, companyId: string, campaignIds: readonly string[]): Promise<Map<string, CampaignCounts>> {
  if (campaignIds.length === 0) return new Map();
  const rows = await em.execute<CountsRow[]>(
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
  return new Map(
    rows.map((r) => [
      r.campaign_id,
      {
        selected: r.selected,
        settled: r.settled,
        pickedUp: r.picked_up,
        failed: r.failed,
        inProgress: r.in_progress,
        queued: r.queued,
        skipped: r.skipped,
        nextAttemptAt: r.next_attempt_at === null ? null : new Date(r.next_attempt_at),
        skippedReasons: r.skipped_reasons,
      },
    ]),
  );
}

const byId = viewQuery<CampaignView>('campaign-by-id', Campaign, campaignContract.view, 'id = $1 AND company_id = $2 AND deleted_at IS NULL LIMIT 1');

/** One campaign of the company, not soft-deleted, as its view: one prepared statement on the reads' pool (the by-id hot read). */
export async function campaignById(reads: ViewReads, companyId: string, id: string): Promise<StoredView<CampaignView> | null> {
  const [found] = await byId(reads, [id, companyId]);
  return found ?? null;
}
