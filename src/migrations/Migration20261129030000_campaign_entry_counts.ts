import { Migration } from '@mikro-orm/migrations';

/**
 * Each campaign keeps how many contacts it has selected and how many of them are settled
 * (docs/campaigns.md, "Progress"): `call_progress` is read from its row instead of counting
 * its entries in every tick (150 ms at a million entries, in each of a selection pass's ticks
 * and each tick after it). The statements that add and settle entries add to the counts in
 * the tick that holds the campaign; the trigger that deletes the entries of contacts deleted
 * outright takes them off. Nullable columns with no default, instant on a live table: null is
 * "not counted yet", and the dialer counts a campaign's entries once, under its lock, on its
 * next tick (a backfill here would race the ticks under way).
 */
export class Migration20261129030000_campaign_entry_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "campaigns" add column "entries_selected" int null, add column "entries_settled" int null;`);
    this.addSql(`create or replace function "campaign_contacts_of_deleted_contacts"() returns trigger language plpgsql as $$
      begin
        with gone as (
          delete from "campaign_contacts" cc using "deleted_contacts" d, "campaigns" c
            where c."company_id" = d."company_id" and cc."company_id" = d."company_id" and cc."campaign_id" = c."id" and cc."contact_id" = d."id"
            returning cc."campaign_id", cc."state"
        )
        update "campaigns" c set "entries_selected" = c."entries_selected" - g."selected", "entries_settled" = c."entries_settled" - g."settled"
          from (select "campaign_id", count(*)::int as "selected", (count(*) filter (where "state" = 'settled'))::int as "settled" from gone group by "campaign_id") g
          where c."id" = g."campaign_id";
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function "campaign_contacts_of_deleted_contacts"() returns trigger language plpgsql as $$
      begin
        delete from "campaign_contacts" cc using "deleted_contacts" d, "campaigns" c
          where c."company_id" = d."company_id" and cc."company_id" = d."company_id" and cc."campaign_id" = c."id" and cc."contact_id" = d."id";
        return null;
      end $$;`);
    this.addSql(`alter table "campaigns" drop column "entries_selected", drop column "entries_settled";`);
  }
}
