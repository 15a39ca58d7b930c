import { Migration } from '@mikro-orm/migrations';

/** The step log's `unresolved_variables`: placeholders no source gave a value. Earlier runs had none recorded. */
export class Migration20261123230000_unresolved_variables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_step_runs" add column "unresolved_variables" jsonb not null default '[]';`);
    this.addSql(`alter table "webhook_step_runs" alter column "unresolved_variables" drop default;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_step_runs" drop column "unresolved_variables";`);
  }
}
