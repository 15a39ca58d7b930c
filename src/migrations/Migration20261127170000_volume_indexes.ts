import { ConcurrentIndexes } from './concurrent-indexes';

/**
 * Indexes the reads of a company with months of history need (docs/performance.md, "Volume"):
 * - calls by status, newest first: `GET /v1/calls?status=` and GraphQL `calls(status:)` read
 *   one status's newest calls instead of walking every call of the company for them;
 * - the company's live contacts, newest first: the contact lists and their keyset pages, and
 *   `totalCount`, counted from the index alone (an index-only scan) instead of the table.
 */
export class Migration20261127170000_volume_indexes extends ConcurrentIndexes {
  protected readonly indexes = [
    { name: 'calls_company_id_call_status_created_at_id_index', table: 'calls', definition: '("company_id", "call_status", "created_at", "id")' },
    { name: 'contacts_live_index', table: 'contacts', definition: '("company_id", "created_at", "id") where "deleted_at" is null' },
  ];
}
