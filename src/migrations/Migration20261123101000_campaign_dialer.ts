import { Migration } from '@mikro-orm/migrations';

export class Migration20261123101000_campaign_dialer extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "campaign_contacts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "campaign_id" uuid not null, "contact_id" uuid not null, "state" varchar(20) not null default 'queued', "attempts" int not null default 0, "next_attempt_at" timestamptz null, "last_call_id" uuid null, "outcome" varchar(20) null, "reason" varchar(100) null, "settled_at" timestamptz null, constraint "campaign_contacts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "campaign_contacts_campaign_id_state_next_attempt_at_index" on "campaign_contacts" ("campaign_id", "state", "next_attempt_at");`);
    this.addSql(`alter table "campaign_contacts" add constraint "campaign_contacts_campaign_id_contact_id_unique" unique ("campaign_id", "contact_id");`);

    this.addSql(`alter table "campaign_contacts" add constraint "campaign_contacts_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(
      `alter table "campaign_contacts" add constraint "campaign_contacts_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`alter table "campaign_contacts" add constraint "campaign_contacts_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "campaigns" add column "selected_at" timestamptz null;`);

    this.addSql(`alter table "calls" add column "campaign_attempt" int null;`);
    this.addSql(`alter table "calls" add constraint "calls_campaign_id_contact_id_campaign_attempt_unique" unique ("campaign_id", "contact_id", "campaign_attempt");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "campaign_contacts" cascade;`);

    this.addSql(`alter table "calls" drop constraint "calls_campaign_id_contact_id_campaign_attempt_unique";`);
    this.addSql(`alter table "calls" drop column "campaign_attempt";`);

    this.addSql(`alter table "campaigns" drop column "selected_at";`);
  }
}
