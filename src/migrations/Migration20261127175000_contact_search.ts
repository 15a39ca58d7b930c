import { Migration } from '@mikro-orm/migrations';

/** The indexes `GET /v1/contacts` and GraphQL `contacts` search and filter with (docs/rest.md, "Listing contacts"). */
const INDEXES = [
  // Name search: every word ILIKE '%word%' on the full name (contact.store.ts `searchFilter`).
  ['contacts_full_name_trgm_index', `using gin (("firstname" || ' ' || "lastname") gin_trgm_ops)`],
  // Part of a number: LIKE '%digits%'.
  ['contacts_phone_number_trgm_index', 'using gin ("phone_number" gin_trgm_ops)'],
  // A whole number, and the CSV import's duplicates: equality within the company.
  ['contacts_company_id_phone_number_index', '("company_id", "phone_number")'],
  // The tag filter, newest first.
  ['contacts_company_id_tag_name_created_at_index', '("company_id", "tag_name", "created_at")'],
] as const;

/**
 * Search indexes on contacts, a table that may hold millions of rows when this runs: each is
 * built CONCURRENTLY, so imports and the dialer keep writing contacts meanwhile (a plain
 * CREATE INDEX would block every write for as long as the build takes). CONCURRENTLY cannot
 * run in a transaction: this migration is not transactional (migrations run one transaction
 * each, `allOrNothing` off in src/db/orm.ts). A build that failed leaves an invalid index of
 * that name: each is dropped first, so running the migration again starts it over.
 */
export class Migration20261127175000_contact_search extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
    this.addSql('create extension if not exists pg_trgm;');
    for (const [name, definition] of INDEXES) {
      this.addSql(`drop index concurrently if exists "${name}";`);
      this.addSql(`create index concurrently "${name}" on "contacts" ${definition};`);
    }
  }

  override async down(): Promise<void> {
    for (const [name] of INDEXES) this.addSql(`drop index concurrently if exists "${name}";`);
  }
}
