import { Migration } from '@mikro-orm/migrations';

export class Migration20261122092620_flow_runs extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhook_step_runs" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "execution_id" uuid not null, "attempt_number" int not null, "step_number" int not null, "status" varchar(20) not null default 'running', "tries" int not null default 0, "started_at" timestamptz null, "finished_at" timestamptz null, "duration_ms" int null, "error" text null, "try_errors" jsonb not null, "request" jsonb null, "response" jsonb null, "extracted" jsonb not null, "version" int not null default 1, constraint "webhook_step_runs_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "webhook_step_runs" add constraint "webhook_step_runs_execution_id_attempt_number_ste_4d224_unique" unique ("execution_id", "attempt_number", "step_number");`);

    this.addSql(
      `alter table "webhook_step_runs" add constraint "webhook_step_runs_execution_id_foreign" foreign key ("execution_id") references "webhook_executions" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`alter table "webhook_executions" add column "definition" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_step_runs" cascade;`);

    this.addSql(`alter table "webhook_executions" drop column "definition";`);
  }
}
