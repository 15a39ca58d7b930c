import { Migration } from '@mikro-orm/migrations';

/**
 * Test scenarios of agents and their runs as simulated calls, replays of real calls included
 * (docs/agents.md, "Test suites", "Replay a real call"), each of one company and one agent.
 */
export class Migration20261127180000_agent_tests extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "agent_scenarios" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "ai_agent_id" uuid not null, "name" text not null, "caller_turns" jsonb null, "caller_persona" jsonb null, "dynamic_variables" jsonb not null, "criteria" jsonb not null, constraint "agent_scenarios_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "agent_scenarios_company_id_ai_agent_id_created_at_index" on "agent_scenarios" ("company_id", "ai_agent_id", "created_at");`);

    this.addSql(
      `create table "agent_test_runs" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "ai_agent_id" uuid not null, "version" int null, "replay_of_id" uuid null, "status" varchar(20) not null default 'queued', "agent" jsonb not null, "results" jsonb not null, "finished_at" timestamptz null, constraint "agent_test_runs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "agent_test_runs_company_id_ai_agent_id_created_at_index" on "agent_test_runs" ("company_id", "ai_agent_id", "created_at");`);

    this.addSql(`alter table "agent_scenarios" add constraint "agent_scenarios_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "agent_scenarios" add constraint "agent_scenarios_ai_agent_id_foreign" foreign key ("ai_agent_id") references "ai_agents" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "agent_test_runs" add constraint "agent_test_runs_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "agent_test_runs" add constraint "agent_test_runs_ai_agent_id_foreign" foreign key ("ai_agent_id") references "ai_agents" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "agent_test_runs" add constraint "agent_test_runs_replay_of_id_foreign" foreign key ("replay_of_id") references "calls" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "agent_scenarios" cascade;`);

    this.addSql(`drop table if exists "agent_test_runs" cascade;`);
  }
}
