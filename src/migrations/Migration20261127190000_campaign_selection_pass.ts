import { Migration } from '@mikro-orm/migrations';

/**
 * The dialer's selection in passes of bounded slices (docs/campaigns.md, "Which contacts"):
 * when the pass under way began, and its keyset cursor over the company's live contacts.
 * Nullable columns with no default: instant on a live table.
 */
export class Migration20261127190000_campaign_selection_pass extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "campaigns" add column "selection_started_at" timestamptz null, add column "selection_after_created_at" timestamptz null, add column "selection_after_id" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "campaigns" drop column "selection_started_at", drop column "selection_after_created_at", drop column "selection_after_id";`);
  }
}
