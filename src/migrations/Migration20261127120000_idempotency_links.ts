import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys keep their answer as the bytes sent (`response_body` text, replayed as is),
 * and the records their first request created (`resource_ids`), linked in the transaction
 * that created them: a key whose process died before storing its answer is answered from
 * those records, never run again (docs/rest.md, "Idempotent retries").
 */
export class Migration20261127120000_idempotency_links extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" alter column "response_body" type text using "response_body"::text;`);
    this.addSql(`alter table "idempotency_keys" add column "resource_ids" uuid[] null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" drop column "resource_ids";`);
    this.addSql(`alter table "idempotency_keys" alter column "response_body" type jsonb using "response_body"::jsonb;`);
  }
}
