import { Migration } from '@mikro-orm/migrations';

export class Migration20261122092354_call_dispatch extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "calls" add column "dispatched_at" timestamptz null;`);
    this.addSql(`create index "calls_call_status_updated_at_index" on "calls" ("call_status", "updated_at");`);
    this.addSql(`create index "calls_company_id_call_status_dispatched_at_index" on "calls" ("company_id", "call_status", "dispatched_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "calls_call_status_updated_at_index";`);
    this.addSql(`drop index "calls_company_id_call_status_dispatched_at_index";`);
    this.addSql(`alter table "calls" drop column "dispatched_at";`);
  }
}
