import { Migration } from '@mikro-orm/migrations';

/**
 * A campaign's entries (`campaign_contacts`) lose their foreign keys to `campaigns` and
 * `contacts` (docs/campaigns.md, "Which contacts", for the integrity argument): each was a
 * lookup and a lock of the campaign or contact for every entry a selection inserts, about half
 * of its cost (docs/performance.md, "Volume"). What they guarded, an entry outliving its
 * campaign or contact when that row is deleted (the product only soft-deletes both; a company's
 * deletion cascades to them), is kept by a statement-level trigger on each table that deletes
 * the entries of the rows a DELETE removed: one statement per DELETE, not one per row.
 * The contacts' trigger reaches the entries through the company's campaigns, by the index on
 * (`campaign_id`, `contact_id`): an entry is always of a campaign of its contact's company.
 * Dropped constraints and new triggers: instant on live tables.
 */
export class Migration20261128040000_campaign_entries_delete_triggers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "campaign_contacts" drop constraint "campaign_contacts_campaign_id_foreign", drop constraint "campaign_contacts_contact_id_foreign";`);
    this.addSql(`create function "campaign_contacts_of_deleted_campaigns"() returns trigger language plpgsql as $$
      begin
        delete from "campaign_contacts" cc using "deleted_campaigns" d where cc."company_id" = d."company_id" and cc."campaign_id" = d."id";
        return null;
      end $$;`);
    this.addSql(`create trigger "campaign_contacts_of_deleted_campaigns" after delete on "campaigns"
      referencing old table as "deleted_campaigns" for each statement execute function "campaign_contacts_of_deleted_campaigns"();`);
    this.addSql(`create function "campaign_contacts_of_deleted_contacts"() returns trigger language plpgsql as $$
      begin
        delete from "campaign_contacts" cc using "deleted_contacts" d, "campaigns" c
          where c."company_id" = d."company_id" and cc."company_id" = d."company_id" and cc."campaign_id" = c."id" and cc."contact_id" = d."id";
        return null;
      end $$;`);
    this.addSql(`create trigger "campaign_contacts_of_deleted_contacts" after delete on "contacts"
      referencing old table as "deleted_contacts" for each statement execute function "campaign_contacts_of_deleted_contacts"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "campaign_contacts_of_deleted_contacts" on "contacts";`);
    this.addSql(`drop function "campaign_contacts_of_deleted_contacts"();`);
    this.addSql(`drop trigger "campaign_contacts_of_deleted_campaigns" on "campaigns";`);
    this.addSql(`drop function "campaign_contacts_of_deleted_campaigns"();`);
    // Entries a race left without their contact (docs/campaigns.md): the constraints below would refuse them.
    this.addSql(`delete from "campaign_contacts" cc where not exists (select 1 from "contacts" ct where ct."id" = cc."contact_id");`);
    this.addSql(
      `alter table "campaign_contacts" add constraint "campaign_contacts_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade, add constraint "campaign_contacts_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`,
    );
  }
}
