import { type FilterQuery, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Contact } from '../../entities';
import { type StoredView, type ViewReads, viewQuery } from '../../db/statements';
import { contactContract, type ContactView } from './contact.contract';
import type { PhoneParser } from '../shared/phone';

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
  const [table] = await em.execute(`/* maintenance:contacts-statistics */ SELECT GREATEST(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'contacts'::regclass`);
  if (imported >= 50 + 0.1 * Number(table!.rows)) await em.execute(`/* maintenance:contacts-statistics */ ANALYZE contacts`);
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

/**
 * A contact's full name as the name search reads it: the expression the trigram index
 * `contacts_full_name_trgm_index` is built on (Migration20261127175000_contact_search), so
 * `ILIKE '%word%'` on it is an index scan, not a scan of every contact.
 */
const fullName = () => raw((alias: string) => `(${alias}.firstname || ' ' || ${alias}.lastname)`);

/** An ILIKE pattern matching text that contains `part` as typed (its `%`, `_` and `\\` are not wildcards). */
export const containing = (part: string) => `%${part.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The contacts a search finds (docs/rest.md, "Listing contacts"). Text with a letter is
 * words, each of which must be part of the full name, in any order and case. Text without
 * one is a number: a whole number in any format is read with `phones` and found in E.164
 * (the (company_id, phone_number) index); a part of one finds the numbers containing its
 * digits (the trigram index on phone_number).
 */
export function searchFilter(search: string, phones: PhoneParser): FilterQuery<Contact> {
  const text = search.trim();
  if (!/\p{L}/u.test(text)) {
    const phone = phones.parse(text);
    if (phone) return { phoneNumber: phone.e164 };
    const digits = text.replace(/\D/g, '');
    if (digits !== '') return { phoneNumber: { $like: containing(digits) } };
  }
  return { $and: text.split(/\s+/).map((word) => ({ [fullName()]: { $ilike: containing(word) } })) } as FilterQuery<Contact>;
}
