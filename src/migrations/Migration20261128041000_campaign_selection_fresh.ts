import { Migration } from '@mikro-orm/migrations';

/**
 * Whether the selection pass under way began with no entry of its campaign (docs/campaigns.md,
 * "Which contacts"): its slices then insert without the anti-join on the entries. A nullable
 * column with no default: instant on a live table.
 */
export class Migration20261128041000_campaign_selection_fresh extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "campaigns" add column "selection_fresh" boolean null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "campaigns" drop column "selection_fresh";`);
  }
}
