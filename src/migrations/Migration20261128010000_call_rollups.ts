import { Migration } from '@mikro-orm/migrations';

/** A call's 15-minute bucket (UTC-aligned), as the store computes it (`BUCKET` in src/services/analytics/analytics.rollups.ts). */
const bucketOf = (row: string) => `date_bin('15 minutes', ${row}.created_at, timestamptz '2000-01-01 00:00:00+00')`;

/** The columns whose change moves a call's figures in its bucket's rollups. */
const COUNTED = ['company_id', 'created_at', 'deleted_at', 'call_status', 'started_at', 'call_duration', 'cost', 'campaign_id', 'ai_agent_id', 'transcript_object'];

/**
 * The analytics rollups (docs/analytics.md, "Rollups"): `call_rollups`, a company's call
 * figures per 15-minute bucket, for the whole company (`dim` 'all') and per campaign, agent and
 * outcome; `call_rollup_dirty`, the (company, bucket) pairs whose calls changed since they were
 * folded, appended by triggers on `calls` (no unique constraint: concurrent writers never wait
 * on each other) and emptied by the fold job.
 *
 * Not transactional, so that it can run on a live table of millions of calls: each statement
 * commits on its own, the triggers' brief lock on `calls` is released at once, and the
 * backfill (every existing bucket marked dirty, after the triggers exist so no change is
 * missed) only reads `calls`. Every statement can run again: a failed run is finished by the
 * next.
 */
export class Migration20261128010000_call_rollups extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "call_rollup_dirty" ("company_id" uuid not null, "bucket" timestamptz not null);`);
    this.addSql(`create index if not exists "call_rollup_dirty_company_id_bucket_index" on "call_rollup_dirty" ("company_id", "bucket");`);
    this.addSql(
      `create table if not exists "call_rollups" ("company_id" uuid not null, "dim" varchar(10) not null, "bucket" timestamptz not null, "key" text not null,
         "calls" int not null, "answered" int not null, "duration_sum" bigint not null, "duration_count" int not null, "cost" numeric not null,
         "statuses" int[] not null, "hist_keys" int[] not null, "hist_counts" int[] not null,
         constraint "call_rollups_pkey" primary key ("company_id", "dim", "bucket", "key"));`,
    );
    this.addSql(
      `create or replace function "call_rollups_mark_rows"() returns trigger language plpgsql as $$
       begin
         insert into "call_rollup_dirty" ("company_id", "bucket") select distinct t.company_id, ${bucketOf('t')} from "touched" t;
         return null;
       end $$;`,
    );
    this.addSql(
      `create or replace function "call_rollups_mark_row"() returns trigger language plpgsql as $$
       begin
         insert into "call_rollup_dirty" ("company_id", "bucket") values (new.company_id, ${bucketOf('new')});
         if old.company_id <> new.company_id or ${bucketOf('old')} <> ${bucketOf('new')} then
           insert into "call_rollup_dirty" ("company_id", "bucket") values (old.company_id, ${bucketOf('old')});
         end if;
         return null;
       end $$;`,
    );
    this.addSql(`drop trigger if exists "calls_rollups_insert" on "calls";`);
    this.addSql(`create trigger "calls_rollups_insert" after insert on "calls" referencing new table as "touched" for each statement execute function "call_rollups_mark_rows"();`);
    this.addSql(`drop trigger if exists "calls_rollups_delete" on "calls";`);
    this.addSql(`create trigger "calls_rollups_delete" after delete on "calls" referencing old table as "touched" for each statement execute function "call_rollups_mark_rows"();`);
    this.addSql(`drop trigger if exists "calls_rollups_update" on "calls";`);
    this.addSql(
      `create trigger "calls_rollups_update" after update of ${COUNTED.map((c) => `"${c}"`).join(', ')} on "calls" for each row
       when (${COUNTED.map((c) => `old."${c}" is distinct from new."${c}"`).join(' or ')}) execute function "call_rollups_mark_row"();`,
    );
    this.addSql(`insert into "call_rollup_dirty" ("company_id", "bucket") select distinct c.company_id, ${bucketOf('c')} from "calls" c where c.deleted_at is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "calls_rollups_update" on "calls";`);
    this.addSql(`drop trigger if exists "calls_rollups_delete" on "calls";`);
    this.addSql(`drop trigger if exists "calls_rollups_insert" on "calls";`);
    this.addSql(`drop function if exists "call_rollups_mark_row"();`);
    this.addSql(`drop function if exists "call_rollups_mark_rows"();`);
    this.addSql(`drop table if exists "call_rollups";`);
    this.addSql(`drop table if exists "call_rollup_dirty";`);
  }
}
