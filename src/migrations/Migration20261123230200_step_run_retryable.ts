import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a failed step run may be tried again in a later attempt: false for failures no
 * retry can cure (a blocked address, a URL invalid once filled, an unusable success
 * condition), so that the attempt that met one is the execution's last (docs/flows.md).
 */
export class Migration20261123230200_step_run_retryable extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_step_runs" add column "retryable" boolean not null default true;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_step_runs" drop column "retryable";`);
  }
}
