import { Migration } from '@mikro-orm/migrations';

/**
 * Calls that survive their relay and warm transfers (docs/calls.md, "A call that survives its
 * replica" and "Transfers"): how many times a call's relay session was resumed after a drop,
 * its latest transfer and the summary told to the transfer's person; how an agent transfers,
 * and the audio played to the caller meanwhile.
 */
export class Migration20261127140000_call_continuity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "calls" add column "resumes" int not null default 0, add column "transfer" jsonb null, add column "transfer_summary" text null;`);
    this.addSql(`alter table "ai_agents" add column "transfer_mode" varchar(10) not null default 'cold', add column "hold_audio_url" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ai_agents" drop column "transfer_mode", drop column "hold_audio_url";`);
    this.addSql(`alter table "calls" drop column "resumes", drop column "transfer", drop column "transfer_summary";`);
  }
}
