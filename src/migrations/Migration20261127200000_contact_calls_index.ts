import { Migration } from '@mikro-orm/migrations';

/**
 * The calls of one contact, newest first (`GET /v1/calls?contact_id=`, GraphQL `calls(contactId:)`
 * and `Contact.calls`): read from an index of the company's calls by contact instead of every call
 * of the company. Its columns end as the list's keyset (`created_at`, `id`), read backwards for
 * newest first, as the calls-by-status index is.
 *
 * Built with `CREATE INDEX CONCURRENTLY` outside a transaction, as the volume indexes are
 * (Migration20261127170000_volume_indexes): a live table keeps taking writes while it builds, and
 * an invalid index a failed build left is dropped first, so running the migration again finishes it.
 */
export class Migration20261127200000_contact_calls_index extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(`drop index concurrently if exists "calls_company_id_contact_id_created_at_id_index";`);
    this.addSql(`create index concurrently "calls_company_id_contact_id_created_at_id_index" on "calls" ("company_id", "contact_id", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index concurrently if exists "calls_company_id_contact_id_created_at_id_index";`);
  }
}
