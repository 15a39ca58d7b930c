import { Migration } from '@mikro-orm/migrations';

/** The calls waiting for a slot, oldest first, per company: what dispatch picks (docs/performance.md). */
export class Migration20261124080000_waiting_calls extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "calls_waiting_index" on "calls" ("company_id", "created_at", "id") where "call_status" = 'pstn-queued' and "dispatched_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "calls_waiting_index";`);
  }
}
