import { Migration } from '@mikro-orm/migrations';

/**
 * Published agent versions (docs/agents.md, "Versions"): immutable snapshots of an agent's
 * settings numbered 1, 2, 3... per agent (unique per agent: two publishes never share a
 * number), the version a call ran (null: the draft), and a campaign's pinned version or
 * weighted split.
 */
export class Migration20261127176000_agent_versions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "ai_agent_versions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "agent_id" uuid not null, "version" int not null, "note" text null, "settings" jsonb not null, constraint "ai_agent_versions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ai_agent_versions_agent_id_created_at_index" on "ai_agent_versions" ("agent_id", "created_at");`);
    this.addSql(`alter table "ai_agent_versions" add constraint "ai_agent_versions_agent_id_version_unique" unique ("agent_id", "version");`);
    this.addSql(`alter table "ai_agent_versions" add constraint "ai_agent_versions_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ai_agent_versions" add constraint "ai_agent_versions_agent_id_foreign" foreign key ("agent_id") references "ai_agents" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "calls" add column "ai_agent_version" int null;`);
    this.addSql(`alter table "campaigns" add column "ai_agent_version" int null, add column "ai_agent_versions" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "campaigns" drop column "ai_agent_version", drop column "ai_agent_versions";`);
    this.addSql(`alter table "calls" drop column "ai_agent_version";`);
    this.addSql(`drop table if exists "ai_agent_versions" cascade;`);
  }
}
