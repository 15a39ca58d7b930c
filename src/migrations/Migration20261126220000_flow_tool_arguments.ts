import { Migration } from '@mikro-orm/migrations';

/**
 * A flow tool's arguments (a language model's), kept apart from the trigger's variables:
 * they fill only step bodies, under names nothing else gives (docs/flows.md, "Flows as tools").
 */
export class Migration20261126220000_flow_tool_arguments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_executions" add column "arguments" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_executions" drop column "arguments";`);
  }
}
