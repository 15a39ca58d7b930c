import { ConcurrentIndexes } from './concurrent-indexes';

/**
 * The calls of one contact, newest first (`GET /v1/calls?contact_id=`, GraphQL `calls(contactId:)`
 * and `Contact.calls`): read from an index of the company's calls by contact instead of every call
 * of the company. Its columns end as the list's keyset (`created_at`, `id`), read backwards for
 * newest first, as the calls-by-status index is.
 */
export class Migration20261127200000_contact_calls_index extends ConcurrentIndexes {
  protected readonly indexes = [{ name: 'calls_company_id_contact_id_created_at_id_index', table: 'calls', definition: '("company_id", "contact_id", "created_at", "id")' }];
}
