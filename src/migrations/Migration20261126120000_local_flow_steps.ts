import { Migration } from '@mikro-orm/migrations';

/**
 * The step of an execution that a process sends itself, without a job, and by when it must
 * have stored it: past that, the flow step sweep queues it as a job (docs/flows.md,
 * "Running it").
 */
export class Migration20261126120000_local_flow_steps extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_executions" add column "local_step" int null, add column "local_until" timestamptz null;`);
    this.addSql(`create index "webhook_executions_local_index" on "webhook_executions" ("local_until") where "local_until" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_executions_local_index";`);
    this.addSql(`alter table "webhook_executions" drop column "local_step", drop column "local_until";`);
  }
}
