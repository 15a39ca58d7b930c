import { Migration } from '@mikro-orm/migrations';

/**
 * ConversationRelay sessions (docs/calls.md, "The websocket"): each session URL's token is
 * used once (its nonce, the key), and a call has at most one open session (the partial
 * unique index).
 */
export class Migration20261127100000_relay_sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "relay_sessions" ("nonce" text primary key, "call_id" uuid not null, "expires_at" timestamptz not null, "opened_at" timestamptz not null default now(), "closed_at" timestamptz null);`,
    );
    this.addSql(`create unique index "relay_sessions_open_call" on "relay_sessions" ("call_id") where "closed_at" is null;`);
    this.addSql(`create index "relay_sessions_expires_at_index" on "relay_sessions" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "relay_sessions";`);
  }
}
