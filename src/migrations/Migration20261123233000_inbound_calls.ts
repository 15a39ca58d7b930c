import { Migration } from '@mikro-orm/migrations';

export class Migration20261123233000_inbound_calls extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "phone_numbers" add column "inbound_agent_id" uuid null;`);
    this.addSql(
      `alter table "phone_numbers" add constraint "phone_numbers_inbound_agent_id_foreign" foreign key ("inbound_agent_id") references "ai_agents" ("id") on update cascade on delete set null;`,
    );

    this.addSql(`create index "calls_call_sid_index" on "calls" ("call_sid");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "calls_call_sid_index";`);

    this.addSql(`alter table "phone_numbers" drop constraint "phone_numbers_inbound_agent_id_foreign";`);
    this.addSql(`alter table "phone_numbers" drop column "inbound_agent_id";`);
  }
}
