import { Migration } from '@mikro-orm/migrations';

/**
 * A phone number belongs to one company at a time (issue 26, item 1): unique on the E.164
 * number across companies, instead of within each. Where several companies held a number, the
 * company that added it first keeps it (the one its incoming calls already reached); the later
 * rows are deleted, and campaigns naming them lose that number (their foreign keys set null),
 * as when a company removes a number itself (docs/calls.md, "Phone numbers").
 */
export class Migration20261127090000_phone_number_holder extends Migration {
  override async up(): Promise<void> {
    this.addSql(`delete from "phone_numbers" later using "phone_numbers" first
      where later."phone_number" = first."phone_number" and (first."created_at", first."id") < (later."created_at", later."id");`);
    this.addSql(`alter table "phone_numbers" drop constraint "phone_numbers_company_id_phone_number_unique";`);
    this.addSql(`alter table "phone_numbers" add constraint "phone_numbers_phone_number_unique" unique ("phone_number");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "phone_numbers" drop constraint "phone_numbers_phone_number_unique";`);
    this.addSql(`alter table "phone_numbers" add constraint "phone_numbers_company_id_phone_number_unique" unique ("company_id", "phone_number");`);
  }
}
