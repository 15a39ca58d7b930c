import { Migration } from '@mikro-orm/migrations';

/**
 * A flow's signing secret is stored encrypted (docs/operations.md, "Secrets at rest"): its
 * envelope is longer than the 100 characters of the clear `whsec_` value. The values are
 * encrypted by the service at start, not here: the key is not in the database.
 */
export class Migration20261127110000_sealed_flow_secrets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_flows" alter column "secret" type text;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_flows" alter column "secret" type varchar(100);`);
  }
}
