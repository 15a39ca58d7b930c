import { Migration } from '@mikro-orm/migrations';

/**
 * A campaign's entry is keyed by its campaign and contact (docs/campaigns.md, "Which
 * contacts"): the unique index built by the previous migration becomes the primary key, and
 * the `id` column, its index and the unique constraint the new key repeats are dropped. A
 * selection then writes each entry into two indexes instead of three, and no key is made for
 * it. Catalog changes only, on a live table: `ADD PRIMARY KEY USING INDEX` neither builds an
 * index nor scans the table (both columns are already NOT NULL), dropping a column only marks
 * it dropped, and dropping an index unlinks its file; the statements hold the table's lock
 * for the moment they take, once the transactions open on it have ended.
 */
export class Migration20261129021000_campaign_entries_key extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "campaign_contacts" drop constraint "campaign_contacts_pkey";`);
    this.addSql(`alter table "campaign_contacts" add constraint "campaign_contacts_pkey" primary key using index "campaign_contacts_key";`);
    this.addSql(`alter table "campaign_contacts" drop constraint "campaign_contacts_campaign_id_contact_id_unique";`);
    this.addSql(`alter table "campaign_contacts" drop column "id";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "campaign_contacts" add column "id" uuid not null default gen_random_uuid();`);
    this.addSql(`alter table "campaign_contacts" alter column "id" drop default;`);
    this.addSql(`alter table "campaign_contacts" add constraint "campaign_contacts_campaign_id_contact_id_unique" unique ("campaign_id", "contact_id");`);
    this.addSql(`alter table "campaign_contacts" drop constraint "campaign_contacts_pkey";`);
    this.addSql(`alter table "campaign_contacts" add constraint "campaign_contacts_pkey" primary key ("id");`);
  }
}
