import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys of writes (docs/rest.md, "Idempotent retries"): one row per company and
 * key, claimed by the first request (insert ... on conflict), holding its answer once it
 * finished. Rows past `expires_at` count as absent and are deleted by the sweep.
 */
export class Migration20261123230150_idempotency_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" (
      "company_id" uuid not null references "companies" ("id") on delete cascade,
      "key" varchar(255) not null, "fingerprint" char(64) not null,
      "claimed_at" timestamptz not null, "expires_at" timestamptz not null,
      "response_status" int null, "response_body" jsonb null,
      constraint "idempotency_keys_pkey" primary key ("company_id", "key"));`);
    this.addSql(`create index "idempotency_keys_expiry" on "idempotency_keys" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys";`);
  }
}
