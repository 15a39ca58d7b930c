import { ConcurrentIndexes } from './concurrent-indexes';

/**
 * The indexes `GET /v1/contacts` and GraphQL `contacts` search and filter with (docs/rest.md,
 * "Listing contacts"), on contacts, a table that may hold millions of rows when this runs.
 */
export class Migration20261127175000_contact_search extends ConcurrentIndexes {
  protected readonly indexes = [
    // Name search: every word ILIKE '%word%' on the full name (contact.store.ts `searchCondition`).
    { name: 'contacts_full_name_trgm_index', table: 'contacts', definition: `using gin (("firstname" || ' ' || "lastname") gin_trgm_ops)` },
    // Part of a number: LIKE '%digits%'.
    { name: 'contacts_phone_number_trgm_index', table: 'contacts', definition: 'using gin ("phone_number" gin_trgm_ops)' },
    // A whole number, and the CSV import's duplicates: equality within the company.
    { name: 'contacts_company_id_phone_number_index', table: 'contacts', definition: '("company_id", "phone_number")' },
    // The tag filter, newest first.
    { name: 'contacts_company_id_tag_name_created_at_index', table: 'contacts', definition: '("company_id", "tag_name", "created_at")' },
  ];

  override async up(): Promise<void> {
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
    this.addSql('create extension if not exists pg_trgm;');
    await super.up();
  }
}
