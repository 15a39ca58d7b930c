import { Migration } from '@mikro-orm/migrations';

/**
 * A cheaper selection pass (docs/campaigns.md, "Which contacts"; docs/performance.md,
 * "Volume"): the pass under way counts the contacts it has read, so that each slice after
 * the first reads as many as all before it; and `campaign_contacts` loses its foreign key to
 * `companies`, a per-row check of every selected contact that the key to `campaigns` already
 * covers (a campaign's entries are of its company, and a company's deletion reaches them
 * through its campaigns). A nullable column with no default and a dropped constraint: instant
 * on a live table.
 */
export class Migration20261127193000_campaign_selection_growth extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "campaigns" add column "selection_read" int null;`);
    this.addSql(`alter table "campaign_contacts" drop constraint "campaign_contacts_company_id_foreign";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "campaign_contacts" add constraint "campaign_contacts_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "campaigns" drop column "selection_read";`);
  }
}
