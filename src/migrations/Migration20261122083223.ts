import { Migration } from '@mikro-orm/migrations';

export class Migration20261122083223 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "companies" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" varchar(200) not null, constraint "companies_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "api_keys" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "prefix" varchar(20) not null, "hash" varchar(64) not null, "revoked_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "api_keys_company_id_index" on "api_keys" ("company_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_hash_unique" unique ("hash");`);

    this.addSql(
      `create table "ai_agents" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid null, "is_template" boolean not null default false, "workspace_id" varchar(100) not null default 'default', "name" varchar(200) not null, "description" text not null default '', "language" varchar(35) not null default 'en-US', "status" varchar(50) not null default 'active', "prompt" text not null default '', "starting_state" varchar(200) not null default '', "who_talks_first" varchar(50) not null default 'agent', "reminder_frequency_from" int not null default 0, "reminder_frequency_to" int not null default 0, "max_silence_duration" int not null default 30, "responsiveness" int not null default 50, "voice_speed" int not null default 50, "voice_temperature" int not null default 50, "interruption_sensitivity" int not null default 50, "llm_temperature" int not null default 30, "agent_type" varchar(50) not null default 'outbound', "background_audio_status" varchar(50) not null default 'off', "agent_flow" jsonb not null, "agent_dynamic_variables" jsonb not null, "agent_post_call_outcomes" jsonb not null, "deleted_at" timestamptz null, constraint "ai_agents_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ai_agents_company_id_workspace_id_index" on "ai_agents" ("company_id", "workspace_id");`);

    this.addSql(
      `create table "phone_numbers" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "phone_number" varchar(20) not null, "country_code" varchar(4) not null, "label" varchar(200) not null default '', constraint "phone_numbers_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "phone_numbers" add constraint "phone_numbers_company_id_phone_number_unique" unique ("company_id", "phone_number");`);

    this.addSql(
      `create table "webhook_flows" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid null, "created_by" varchar(200) null, "workspace_id" varchar(100) not null default 'default', "name" varchar(200) not null, "logo" text not null default '', "retry_delay" int not null default 60, "retry_delay_unit" varchar(10) not null default 'seconds', "max_retries" int not null default 3, "status" varchar(50) not null default 'running', "is_template" boolean not null default false, "flow_direction" varchar(20) not null default 'outbound', "flow_mapping" jsonb not null, "tag_name" varchar(200) not null default '', "category_name" varchar(200) not null default '', "predefined_variables" jsonb not null, "variables" jsonb not null, "secret" varchar(100) not null, "deleted_at" timestamptz null, constraint "webhook_flows_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_flows_company_id_workspace_id_index" on "webhook_flows" ("company_id", "workspace_id");`);

    this.addSql(
      `create table "webhook_executions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "flow_id" uuid not null, "status" varchar(20) not null default 'scheduled', "attempt_number" int not null default 1, "variables" jsonb not null, "executed_at" timestamptz null, "next_retry_at" timestamptz null, "finished_at" timestamptz null, "error_message" text null, constraint "webhook_executions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_executions_flow_id_created_at_id_index" on "webhook_executions" ("flow_id", "created_at", "id");`);

    this.addSql(
      `create table "campaigns" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "workspace" varchar(100) not null default 'default', "name" varchar(200) not null, "notes" text not null default '', "status" varchar(50) not null default 'draft', "campaign_type" varchar(50) not null default 'outbound', "call_progress" int not null default 0, "days_of_week" jsonb not null, "time_zone" varchar(64) not null default 'UTC', "contacts_list_source" jsonb not null, "contacts_list_tags" jsonb not null, "contacts_list_categories" jsonb not null, "contacts_list_source_metadata" jsonb not null, "agent_variables_contact_metadata_mapping" jsonb not null, "call_time_of_day_from" time(0) not null default '09:00:00', "call_time_of_day_to" time(0) not null default '17:00:00', "number_of_call_attempts" jsonb not null, "retry_delay" jsonb not null, "retry_delay_unit" jsonb not null, "started_at" date null, "ended_at" date null, "webhook_mapping_variables" jsonb not null, "webhook_mapping_variables_sources" jsonb not null, "owner_user_id" varchar(200) null, "ai_agent_id" uuid null, "inbound_phone_number_id" uuid null, "outbound_phone_number_id" uuid null, "webhook_id" uuid null, "allow_non_local_calls" boolean not null default false, "max_concurrent_calls" int not null default 5, "deleted_at" timestamptz null, constraint "campaigns_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "campaigns_company_id_workspace_index" on "campaigns" ("company_id", "workspace");`);

    this.addSql(
      `create table "contacts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "campaign_id" uuid null, "firstname" varchar(200) not null default '', "lastname" varchar(200) not null default '', "phone_number" varchar(20) not null, "number_country_code" varchar(4) not null, "metadata" jsonb not null, "last_call_status" varchar(50) null, "last_call_at" timestamptz null, "last_call_duration" int null, "last_call_feedback" text null, "source_name" varchar(200) not null default '', "tag_name" varchar(200) not null default '', "category_name" varchar(200) not null default '', "notes" text not null default '', "status" varchar(50) not null default 'active', "deleted_at" timestamptz null, constraint "contacts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "contacts_campaign_id_index" on "contacts" ("campaign_id");`);
    this.addSql(`create index "contacts_company_id_created_at_index" on "contacts" ("company_id", "created_at");`);

    this.addSql(
      `create table "calls" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "company_id" uuid not null, "ai_agent_id" uuid not null, "campaign_id" uuid null, "contact_id" uuid null, "workspace_id" varchar(100) not null default 'default', "call_sid" varchar(100) not null default '', "call_provider" varchar(50) not null, "call_from" varchar(20) not null, "call_to" varchar(20) not null, "call_duration" int not null default 0, "call_status" varchar(30) not null default 'pstn-queued', "call_direction" varchar(20) not null default 'outgoing', "is_test" boolean not null default false, "call_rating" int not null default 0, "call_feedback" text null, "record_url" text null, "transcript" text null, "transcript_object" jsonb null, "transcript_language" varchar(35) null, "cost" numeric(12,4) not null default 0, "price_unit" varchar(3) not null, "latency" int not null default 0, "disconnect_reason" varchar(100) not null default '', "analysis_sentiment" varchar(50) not null default '', "agent_task_status" varchar(50) not null default '', "agent_task_feedback" text not null default '', "metadata" jsonb null, "agent_dynamic_variables" jsonb not null, "agent_post_call_outcomes" jsonb null, "notes" text null, "deleted_at" timestamptz null, "started_at" timestamptz null, "ended_at" timestamptz null, "retry_at" timestamptz null, constraint "calls_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "calls_campaign_id_created_at_index" on "calls" ("campaign_id", "created_at");`);
    this.addSql(`create index "calls_company_id_workspace_id_created_at_index" on "calls" ("company_id", "workspace_id", "created_at");`);
    this.addSql(`create index "calls_company_id_created_at_id_index" on "calls" ("company_id", "created_at", "id");`);

    this.addSql(
      `create table "webhook_steps" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "flow_id" uuid not null, "step_number" int not null, "webhook_url" text not null, "webhook_method" varchar(10) not null default 'POST', "webhook_timeout" int not null default 10, "retry_limit" int not null default 0, "timeout" int not null default 30, "webhook_url_params" jsonb not null, "webhook_headers" jsonb not null, "webhook_body" jsonb null, "depends_on_step" int null, "success_condition" jsonb null, "deleted_at" timestamptz null, constraint "webhook_steps_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "webhook_steps" add constraint "webhook_steps_flow_id_step_number_unique" unique ("flow_id", "step_number");`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "ai_agents" add constraint "ai_agents_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "phone_numbers" add constraint "phone_numbers_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_flows" add constraint "webhook_flows_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(
      `alter table "webhook_executions" add constraint "webhook_executions_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`alter table "webhook_executions" add constraint "webhook_executions_flow_id_foreign" foreign key ("flow_id") references "webhook_flows" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "campaigns" add constraint "campaigns_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_ai_agent_id_foreign" foreign key ("ai_agent_id") references "ai_agents" ("id") on update cascade on delete set null;`);
    this.addSql(
      `alter table "campaigns" add constraint "campaigns_inbound_phone_number_id_foreign" foreign key ("inbound_phone_number_id") references "phone_numbers" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "campaigns" add constraint "campaigns_outbound_phone_number_id_foreign" foreign key ("outbound_phone_number_id") references "phone_numbers" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`alter table "campaigns" add constraint "campaigns_webhook_id_foreign" foreign key ("webhook_id") references "webhook_flows" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "contacts" add constraint "contacts_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "contacts" add constraint "contacts_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "calls" add constraint "calls_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "calls" add constraint "calls_ai_agent_id_foreign" foreign key ("ai_agent_id") references "ai_agents" ("id") on update cascade;`);
    this.addSql(`alter table "calls" add constraint "calls_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "calls" add constraint "calls_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "webhook_steps" add constraint "webhook_steps_flow_id_foreign" foreign key ("flow_id") references "webhook_flows" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "api_keys" drop constraint "api_keys_company_id_foreign";`);

    this.addSql(`alter table "ai_agents" drop constraint "ai_agents_company_id_foreign";`);

    this.addSql(`alter table "phone_numbers" drop constraint "phone_numbers_company_id_foreign";`);

    this.addSql(`alter table "webhook_flows" drop constraint "webhook_flows_company_id_foreign";`);

    this.addSql(`alter table "webhook_executions" drop constraint "webhook_executions_company_id_foreign";`);

    this.addSql(`alter table "campaigns" drop constraint "campaigns_company_id_foreign";`);

    this.addSql(`alter table "contacts" drop constraint "contacts_company_id_foreign";`);

    this.addSql(`alter table "calls" drop constraint "calls_company_id_foreign";`);

    this.addSql(`alter table "campaigns" drop constraint "campaigns_ai_agent_id_foreign";`);

    this.addSql(`alter table "calls" drop constraint "calls_ai_agent_id_foreign";`);

    this.addSql(`alter table "campaigns" drop constraint "campaigns_inbound_phone_number_id_foreign";`);

    this.addSql(`alter table "campaigns" drop constraint "campaigns_outbound_phone_number_id_foreign";`);

    this.addSql(`alter table "webhook_executions" drop constraint "webhook_executions_flow_id_foreign";`);

    this.addSql(`alter table "campaigns" drop constraint "campaigns_webhook_id_foreign";`);

    this.addSql(`alter table "webhook_steps" drop constraint "webhook_steps_flow_id_foreign";`);

    this.addSql(`alter table "contacts" drop constraint "contacts_campaign_id_foreign";`);

    this.addSql(`alter table "calls" drop constraint "calls_campaign_id_foreign";`);

    this.addSql(`alter table "calls" drop constraint "calls_contact_id_foreign";`);

    this.addSql(`drop table if exists "companies" cascade;`);

    this.addSql(`drop table if exists "api_keys" cascade;`);

    this.addSql(`drop table if exists "ai_agents" cascade;`);

    this.addSql(`drop table if exists "phone_numbers" cascade;`);

    this.addSql(`drop table if exists "webhook_flows" cascade;`);

    this.addSql(`drop table if exists "webhook_executions" cascade;`);

    this.addSql(`drop table if exists "campaigns" cascade;`);

    this.addSql(`drop table if exists "contacts" cascade;`);

    this.addSql(`drop table if exists "calls" cascade;`);

    this.addSql(`drop table if exists "webhook_steps" cascade;`);
  }
}
