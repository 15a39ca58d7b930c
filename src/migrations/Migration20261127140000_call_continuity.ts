import { Migration } from '@mikro-orm/migrations';

/**
 * Calls that survive their relay (docs/calls.md, "A call that survives its replica"): how many
 * times a call's relay session was resumed after a drop.
 */
export class Migration20261127140000_call_continuity extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "calls" add column "resumes" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "calls" drop column "resumes";`);
  }

}
