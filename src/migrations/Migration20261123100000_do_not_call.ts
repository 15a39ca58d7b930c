import { Migration } from '@mikro-orm/migrations';

export class Migration20261123100000_do_not_call extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "do_not_call_numbers" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "phone_number" varchar(20) not null, "reason" text null, constraint "do_not_call_numbers_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "do_not_call_numbers_company_id_created_at_index" on "do_not_call_numbers" ("company_id", "created_at");`);
    this.addSql(`alter table "do_not_call_numbers" add constraint "do_not_call_numbers_company_id_phone_number_unique" unique ("company_id", "phone_number");`);

    this.addSql(
      `alter table "do_not_call_numbers" add constraint "do_not_call_numbers_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "do_not_call_numbers" cascade;`);
  }
}
