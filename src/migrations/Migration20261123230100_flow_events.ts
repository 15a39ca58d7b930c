import { Migration } from '@mikro-orm/migrations';

/**
 * Event subscriptions of flows (docs/flows.md, "Event subscriptions"): the events a flow
 * subscribes to and their filters, and the outbox of events to deliver. An outbox row is
 * written in the transaction of the state change it reports; its unique key makes each
 * (flow, event, record) one delivery, whoever writes it and however often.
 */
export class Migration20261123230100_flow_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_flows" add column "events" jsonb not null default '[]', add column "event_filters" jsonb not null default '{}';`);
    // The defaults filled existing flows; new rows get theirs from the entity, as the other JSON columns do.
    this.addSql(`alter table "webhook_flows" alter column "events" drop default, alter column "event_filters" drop default;`);
    this.addSql(`create table "flow_events" (
      "id" uuid not null, "company_id" uuid not null references "companies" ("id") on delete cascade,
      "flow_id" uuid not null references "webhook_flows" ("id") on delete cascade,
      "event" varchar(40) not null, "subject_id" uuid not null, "occurred_at" timestamptz not null,
      "record" jsonb not null, "created_at" timestamptz not null,
      "delivered_at" timestamptz null, "execution_id" uuid null, "refusal" varchar(200) null,
      constraint "flow_events_pkey" primary key ("id"),
      constraint "flow_events_once" unique ("flow_id", "event", "subject_id"));`);
    this.addSql(`create index "flow_events_pending" on "flow_events" ("company_id", "created_at") where "delivered_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "flow_events";`);
    this.addSql(`alter table "webhook_flows" drop column "events", drop column "event_filters";`);
  }
}
