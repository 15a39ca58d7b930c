import { Migration } from '@mikro-orm/migrations';

/**
 * Answering machines and recordings (docs/calls.md, "Answering machines" and "Recording"):
 * what the agent does on a machine and whether its calls are recorded; who answered a call,
 * Twilio's raw detection result, and the provider's recording with when it was stored.
 */
export class Migration20261127130000_voicemail_recording extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "ai_agents" add column "voicemail_action" varchar(20) not null default 'hangup', add column "voicemail_message" text not null default '', add column "call_recording" varchar(10) not null default 'off', add column "opening_disclosure" text not null default '';`,
    );
    this.addSql(
      `alter table "calls" add column "answered_by" varchar(10) null, add column "machine_detection" varchar(30) null, add column "recording_sid" varchar(100) null, add column "recording_at" timestamptz null;`,
    );
    this.addSql(`create index "calls_recording_at_index" on "calls" ("recording_at") where "recording_sid" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "calls_recording_at_index";`);
    this.addSql(`alter table "calls" drop column "answered_by", drop column "machine_detection", drop column "recording_sid", drop column "recording_at";`);
    this.addSql(`alter table "ai_agents" drop column "voicemail_action", drop column "voicemail_message", drop column "call_recording", drop column "opening_disclosure";`);
  }
}
