import type { EntityManager } from '@mikro-orm/postgresql';
import { Contact } from '../../entities';
import { pageReads, type StoredView, type ViewReads, viewQuery } from '../../db/statements';
import { contactContract, type ContactView } from './contact.contract';
import type { PhoneParser } from '../shared/phone';
import { CONTACT_COUNT_DELTAS_TABLE, CONTACT_COUNTS_FOLD_LOCK, CONTACT_COUNTS_TABLE } from '../../db/tables';
import { tryLockUntilCommit } from '../platform/advisory-lock.store';

/**
 * Refreshes the planner's statistics of the contacts table after a bulk import that changes
 * it by as much as autovacuum waits for (50 rows plus 10% of the table: its default
 * `autovacuum_analyze_threshold` and `_scale_factor`), instead of within autovacuum's next
 * round, up to a minute later. PostgreSQL's advice after a bulk load ("Populating a
 * Database": run ANALYZE afterwards). Without it, a campaign started right after the first
 * large import of a deployment ran its calls' statements on plans made for an empty table: a
 * sequential scan of the contacts in every transition (1.5 ms and about 1,200 buffers each,
 * against 0.18 ms and 39 buffers; docs/performance.md, "The dialer and stale statistics").
 */
export async function refreshContactStatistics(em: EntityManager, imported: number): Promise<void> {
  const [table] = await em.execute<{ rows: number }[]>(`/* maintenance:contacts-statistics */ SELECT GREATEST(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'contacts'::regclass`);
  if (imported >= 50 + 0.1 * table.rows) await em.execute(`/* maintenance:contacts-statistics */ ANALYZE contacts`);
}

/** The company's live contacts, newest first: the first page, then each page after the last row of the one before (a row comparison the index starts at). */
const livePages = {
  first: viewQuery<ContactView>('contacts-live-first', Contact, contactContract.view, 'company_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $2'),
  after: viewQuery<ContactView>(
    'contacts-live-after',
    Contact,
    contactContract.view,
    'company_id = $1 AND deleted_at IS NULL AND (created_at, id) < ($2::timestamptz, $3::uuid) ORDER BY created_at DESC, id DESC LIMIT $4',
  ),
};

/**
 * A page of `limit` live contacts of the company as stored views, newest first, after `last`
 * (the last row of the page before) or from the newest: one prepared statement on the reads'
 * pool, no entity or identity map (docs/performance.md, "Volume").
 */
export function liveContactsPage(reads: ViewReads, companyId: string, limit: number, last?: StoredView<ContactView>): Promise<StoredView<ContactView>[]> {
  return last ? livePages.after(reads, [companyId, last.createdAt, last.id, limit]) : livePages.first(reads, [companyId, limit]);
}

/** An ILIKE pattern matching text that contains `part` as typed (its `%`, `_` and `\\` are not wildcards). */
export const containing = (part: string) => `%${part.replace(/[\\%_]/g, '\\$&')}%`;

/** The filters of a page of contacts (`pageContactsInput`): every one given must match. */
export interface ContactFilters {
  status?: string;
  campaignId?: string;
  tagName?: string;
  search?: string;
}

/** No filter given: every live contact of the company. */
const unfiltered = (f: ContactFilters): boolean => f.status === undefined && f.campaignId === undefined && f.tagName === undefined && f.search === undefined;

/**
 * The condition a search sets (docs/rest.md, "Listing contacts"), `value` naming each of its
 * values as a placeholder. Text with a letter is words, each of which must be part of the
 * full name, in any order and case: `ILIKE '%word%'` on the expression the trigram index
 * `contacts_full_name_trgm_index` is built on (Migration20261127175000_contact_search), an
 * index scan, not a scan of every contact. Text without one is a number: a whole number in
 * any format is read with `phones` and found in E.164 (the (company_id, phone_number)
 * index); a part of one finds the numbers containing its digits (the trigram index on
 * phone_number).
 */
function searchCondition(search: string, phones: PhoneParser, value: (v: unknown) => string): string {
  const text = search.trim();
  if (!/\p{L}/u.test(text)) {
    const phone = phones.parse(text);
    if (phone) return `phone_number = ${value(phone.e164)}`;
    const digits = text.replace(/\D/g, '');
    if (digits !== '') return `phone_number LIKE ${value(containing(digits))}`;
  }
  return text
    .split(/\s+/)
    .map((word) => `(firstname || ' ' || lastname) ILIKE ${value(containing(word))}`)
    .join(' AND ');
}

/**
 * The company's live contacts `filters` match, after `after` (a row comparison the indexes on
 * (…, created_at, id) start at): the conditions, `$n`-numbered, and their values.
 */
function contactConditions(companyId: string, filters: ContactFilters, phones: PhoneParser, after?: { createdAt: Date; id: string }) {
  const values: unknown[] = [companyId];
  const value = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const conditions = ['company_id = $1', 'deleted_at IS NULL'];
  if (filters.status !== undefined) conditions.push(`status = ${value(filters.status)}`);
  if (filters.campaignId !== undefined) conditions.push(`campaign_id = ${value(filters.campaignId)}::uuid`);
  if (filters.tagName !== undefined) conditions.push(`tag_name = ${value(filters.tagName)}`);
  if (filters.search !== undefined) conditions.push(searchCondition(filters.search, phones, value));
  if (after) conditions.push(`(created_at, id) < (${value(after.createdAt)}::timestamptz, ${value(after.id)}::uuid)`);
  // A search's plan depends on its words (how rare each is): planned for its own values each time, the others prepared once.
  return { where: conditions.join(' AND '), values, prepared: filters.search === undefined };
}

/** The reads of contacts' pages, by their text: a search's planned at each run, the others prepared once per connection. */
const contactPages = pageReads<ContactView>('contacts-page', Contact);

/**
 * A page of `limit` of the company's live contacts `filters` match, newest first, after
 * `after`, as stored views (`GET /v1/contacts`, GraphQL `contacts`): one statement on the
 * reads' pool, no entity or identity map (docs/performance.md, "Volume"); prepared per
 * combination of filters, except a search's.
 */
export async function contactsPage(
  reads: ViewReads,
  phones: PhoneParser,
  companyId: string,
  filters: ContactFilters,
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
): Promise<StoredView<ContactView>[]> {
  const { where, values, prepared } = contactConditions(companyId, filters, phones, after);
  const text = `${where} ORDER BY created_at DESC, id DESC LIMIT $${values.length + 1}`;
  return contactPages(text, () => contactContract.view, text, prepared)(reads, [...values, limit]);
}

/**
 * How many live contacts (not deleted, whatever their status) the company has, as kept by the
 * triggers on contacts (Migration20261128020000_contact_counts): its base row plus its
 * deltas not folded yet, read in one statement (one snapshot, so a fold committing meanwhile
 * is seen whole or not at all). Exact, and two index reads however many contacts it has.
 */
const liveCount = {
  name: 'contacts-live-count',
  text: `SELECT (COALESCE((SELECT live FROM ${CONTACT_COUNTS_TABLE} WHERE company_id = $1), 0)
          + COALESCE((SELECT sum(delta) FROM ${CONTACT_COUNT_DELTAS_TABLE} WHERE company_id = $1), 0))::int AS n`,
};

/** The company's live contacts, as kept (`liveCount`): one prepared statement on the reads' pool. */
export async function liveContactsCount(reads: ViewReads, companyId: string): Promise<number> {
  const { rows } = await reads.pool.query<{ n: number }>({ ...liveCount, values: [companyId], types: reads.types });
  reads.onStatement?.(liveCount.text);
  return rows[0].n;
}

/**
 * Folds the pending deltas of the kept counts into their companies' base rows, in one
 * statement of the transaction open on `em` (the deltas it deletes are those it sees; later
 * ones wait for the next fold), once at a time across replicas: false when another fold
 * holds the lock (the same one `contact_counts_rebuild()` takes). Answers how many deltas it folded.
 */
export async function foldContactCounts(em: EntityManager): Promise<number | false> {
  if (!(await tryLockUntilCommit(em, CONTACT_COUNTS_FOLD_LOCK))) return false;
  const [row] = await em.execute<{ folded: number }[]>(
    `/* sweep:contact-counts.fold */ WITH folded AS (DELETE FROM ${CONTACT_COUNT_DELTAS_TABLE} RETURNING company_id, delta),
       based AS (
         INSERT INTO ${CONTACT_COUNTS_TABLE} AS b (company_id, live) SELECT company_id, sum(delta) FROM folded GROUP BY company_id
         ON CONFLICT (company_id) DO UPDATE SET live = b.live + excluded.live
       )
     SELECT count(*)::int AS folded FROM folded`,
  );
  return row.folded;
}

/**
 * How many of the company's live contacts `filters` match (GraphQL `totalCount`), exact: with
 * no filter, the kept count (`liveContactsCount`); with any, a count of the matching rows,
 * one statement on the reads' pool through the indexes their pages use.
 */
export async function contactsCount(reads: ViewReads, phones: PhoneParser, companyId: string, filters: ContactFilters): Promise<number> {
  if (unfiltered(filters)) return liveContactsCount(reads, companyId);
  const { where, values } = contactConditions(companyId, filters, phones);
  const text = `SELECT count(*)::int AS n FROM contacts WHERE ${where}`;
  const { rows } = await reads.pool.query<{ n: number }>({ text, values, types: reads.types });
  reads.onStatement?.(text);
  return rows[0].n;
}

/** Numbers looked up, or contacts updated, per statement of an import. */
const IMPORT_BATCH = 10_000;

/** Which of `numbers` (E.164) a contact of the company already has: one statement per 10,000, on the (company_id, phone_number) index. */
export async function numbersInCompany(em: EntityManager, companyId: string, numbers: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < numbers.length; start += IMPORT_BATCH) {
    const rows = await em.execute<{ phone_number: string }[]>(
      `SELECT DISTINCT phone_number FROM contacts WHERE company_id = ? AND deleted_at IS NULL AND phone_number IN (SELECT jsonb_array_elements_text(?::jsonb))`,
      [companyId, JSON.stringify(numbers.slice(start, start + IMPORT_BATCH))],
    );
    for (const row of rows) found.add(row.phone_number);
  }
  return found;
}

/** What an import writes over a contact that has its number: the fields its row holds (left out: kept). */
export interface ImportedFields {
  phoneNumber: string;
  firstname?: string;
  lastname?: string;
  tagName?: string;
  categoryName?: string;
  sourceName?: string;
  notes?: string;
  status?: string;
  metadata?: Record<string, unknown>;
  campaignId?: string | null;
}

/**
 * Updates the company's contacts having each row's number with the fields the row holds;
 * its metadata keys are merged into theirs. One statement per 10,000 rows.
 */
export async function updateByNumber(em: EntityManager, companyId: string, rows: readonly ImportedFields[], now: Date): Promise<void> {
  for (let start = 0; start < rows.length; start += IMPORT_BATCH) {
    const batch = rows.slice(start, start + IMPORT_BATCH).map((r) => ({
      phone_number: r.phoneNumber,
      firstname: r.firstname,
      lastname: r.lastname,
      tag_name: r.tagName,
      category_name: r.categoryName,
      source_name: r.sourceName,
      notes: r.notes,
      status: r.status,
      metadata: r.metadata,
      campaign_id: r.campaignId ?? undefined,
    }));
    await em.execute(
      `UPDATE contacts c SET firstname = COALESCE(r.firstname, c.firstname), lastname = COALESCE(r.lastname, c.lastname),
         tag_name = COALESCE(r.tag_name, c.tag_name), category_name = COALESCE(r.category_name, c.category_name),
         source_name = COALESCE(r.source_name, c.source_name), notes = COALESCE(r.notes, c.notes), status = COALESCE(r.status, c.status),
         metadata = c.metadata || COALESCE(r.metadata, '{}'::jsonb), campaign_id = COALESCE(r.campaign_id, c.campaign_id), updated_at = ?
       FROM jsonb_to_recordset(?::jsonb) AS r(phone_number text, firstname text, lastname text, tag_name text, category_name text, source_name text, notes text, status text, metadata jsonb, campaign_id uuid)
       WHERE c.company_id = ? AND c.deleted_at IS NULL AND c.phone_number = r.phone_number`,
      [now, JSON.stringify(batch), companyId],
    );
  }
}

const byIds = viewQuery<ContactView>('contacts-by-ids', Contact, contactContract.view, 'id = ANY($1::uuid[]) AND company_id = $2');

/** The company's contacts of `ids` (deleted ones too) as stored views: one prepared statement on the reads' pool (GraphQL's batched `contact` of a page of calls). */
export function contactsByIds(reads: ViewReads, companyId: string, ids: readonly string[]): Promise<StoredView<ContactView>[]> {
  return byIds(reads, [[...ids], companyId]);
}
