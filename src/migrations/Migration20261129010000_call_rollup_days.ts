import { Migration } from '@mikro-orm/migrations';

/** A 15-minute bucket's UTC day, as the store computes it (`dayOf` in src/services/analytics/analytics.store.ts). */
const dayOf = (bucket: string) => `date_bin('24 hours', ${bucket}, timestamptz '2000-01-01 00:00:00+00')`;

/**
 * The analytics day rollups (docs/analytics.md, "Rollups"): `call_rollup_days`, a company's
 * call figures per UTC day and dimension, the sums of the day's 15-minute rollups
 * (`call_rollups`), which the fold writes after the buckets it folded. Statement triggers
 * delete the days of every 15-minute rollup inserted or deleted, so a day row is never older
 * than its buckets' rollups, whoever folded them; a query reads a day from its rows only when
 * the row of its whole company (`dim` 'all') is there.
 *
 * Under the fold's advisory lock (`switchboard:analytics-fold`): no fold runs while the days
 * are computed from the rollups (a small table: one row per bucket and dimension), and any fold
 * after sees the trigger.
 */
export class Migration20261129010000_call_rollup_days extends Migration {
  override async up(): Promise<void> {
    this.addSql(`select pg_advisory_xact_lock(hashtext('switchboard:analytics-fold'));`);
    this.addSql(
      `create table "call_rollup_days" ("company_id" uuid not null, "dim" varchar(10) not null, "day" timestamptz not null, "key" text not null,
         "calls" int not null, "answered" int not null, "duration_sum" bigint not null, "duration_count" int not null, "cost" numeric not null,
         "statuses" int[] not null, "hist_keys" int[] not null, "hist_counts" int[] not null,
         constraint "call_rollup_days_pkey" primary key ("company_id", "dim", "day", "key"));`,
    );
    this.addSql(
      `create function "call_rollup_days_clear"() returns trigger language plpgsql as $$
       begin
         delete from "call_rollup_days" d using (select distinct g.company_id, ${dayOf('g.bucket')} as day from "touched" g) g
          where d.company_id = g.company_id and d.day = g.day;
         return null;
       end $$;`,
    );
    this.addSql(`create trigger "call_rollups_insert_clear_days" after insert on "call_rollups" referencing new table as "touched" for each statement execute function "call_rollup_days_clear"();`);
    this.addSql(`create trigger "call_rollups_delete_clear_days" after delete on "call_rollups" referencing old table as "touched" for each statement execute function "call_rollup_days_clear"();`);
    this.addSql(
      `insert into "call_rollup_days" ("company_id", "dim", "day", "key", "calls", "answered", "duration_sum", "duration_count", "cost", "statuses", "hist_keys", "hist_counts")
       with sums as (
         select company_id, dim, ${dayOf('bucket')} as day, key, sum(calls)::int as calls, sum(answered)::int as answered,
                sum(duration_sum)::bigint as duration_sum, sum(duration_count)::int as duration_count, sum(cost) as cost
         from "call_rollups" group by 1, 2, 3, 4
       ),
       statuses as (
         select company_id, dim, day, key, array_agg(n order by i) as statuses
         from (select r.company_id, r.dim, ${dayOf('r.bucket')} as day, r.key, s.i, sum(s.n)::int as n
               from "call_rollups" r cross join lateral unnest(r.statuses) with ordinality s(n, i) group by 1, 2, 3, 4, 5) s
         group by 1, 2, 3, 4
       ),
       hists as (
         select company_id, dim, day, key, array_agg(k order by k) as hist_keys, array_agg(n order by k) as hist_counts
         from (select r.company_id, r.dim, ${dayOf('r.bucket')} as day, r.key, h.k, sum(h.n)::int as n
               from "call_rollups" r cross join lateral unnest(r.hist_keys, r.hist_counts) h(k, n) group by 1, 2, 3, 4, 5) h
         group by 1, 2, 3, 4
       )
       select s.company_id, s.dim, s.day, s.key, s.calls, s.answered, s.duration_sum, s.duration_count, s.cost, t.statuses,
              coalesce(h.hist_keys, '{}'), coalesce(h.hist_counts, '{}')
       from sums s join statuses t using (company_id, dim, day, key) left join hists h using (company_id, dim, day, key);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "call_rollups_delete_clear_days" on "call_rollups";`);
    this.addSql(`drop trigger if exists "call_rollups_insert_clear_days" on "call_rollups";`);
    this.addSql(`drop function if exists "call_rollup_days_clear"();`);
    this.addSql(`drop table if exists "call_rollup_days";`);
  }
}
