import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes the reads of a company with months of history need (docs/performance.md, "Volume"):
 * - calls by status, newest first: `GET /v1/calls?status=` and GraphQL `calls(status:)` read
 *   one status's newest calls instead of walking every call of the company for them;
 * - the company's live contacts, newest first: the contact lists and their keyset pages, and
 *   `totalCount`, counted from the index alone (an index-only scan) instead of the table.
 *
 * Built with `CREATE INDEX CONCURRENTLY`, so a live table keeps taking writes while they
 * build; that cannot run in a transaction, so this migration runs outside one
 * (`isTransactional`; the migrator commits each migration on its own, docs/operations.md,
 * "Migrations"). A build that fails leaves an invalid index behind: each is dropped first if
 * present, so running the migration again finishes it.
 */
export class Migration20261127170000_volume_indexes extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(`drop index concurrently if exists "calls_company_id_call_status_created_at_id_index";`);
    this.addSql(`create index concurrently "calls_company_id_call_status_created_at_id_index" on "calls" ("company_id", "call_status", "created_at", "id");`);
    this.addSql(`drop index concurrently if exists "contacts_live_index";`);
    this.addSql(`create index concurrently "contacts_live_index" on "contacts" ("company_id", "created_at", "id") where "deleted_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index concurrently if exists "contacts_live_index";`);
    this.addSql(`drop index concurrently if exists "calls_company_id_call_status_created_at_id_index";`);
  }
}
