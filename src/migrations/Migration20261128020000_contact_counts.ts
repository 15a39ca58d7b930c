import { Migration } from '@mikro-orm/migrations';

/**
 * The count of each company's live contacts kept as contacts change (docs/performance.md,
 * "Volume"), so that GraphQL `contacts { totalCount }` without filters reads two rows instead
 * of counting a million. Contention-free: triggers on `contacts` (statement-level with
 * transition tables for inserts and deletes, one signed delta per company and statement; a
 * row trigger for the updates that delete, restore or move a contact) append to an append-only
 * table (no row that every writing transaction updates, so imports and API writes never wait
 * on each other); a count is its company's base row plus its pending deltas, read in one
 * statement; a periodic fold (`foldContactCounts`) moves the deltas into the base rows.
 *
 * Not transactional, so a live 1M-row table keeps taking writes: each statement commits on
 * its own. Creating the triggers takes a lock that waits for the writes under way and blocks
 * new ones only as long as the creation; the backfill (`contact_counts_rebuild()`) then
 * counts without any lock on contacts: in one statement (one snapshot) it sets each base to
 * the live contacts that snapshot sees minus the deltas it sees, so the deltas written after
 * it (or by transactions it does not see) add up to the exact count. Every statement can run
 * again, so a migration that failed half-way finishes when run again.
 */
export class Migration20261128020000_contact_counts extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "contact_counts" ("company_id" uuid not null primary key, "live" bigint not null);`);
    this.addSql(`create table if not exists "contact_count_deltas" ("id" bigint generated always as identity primary key, "company_id" uuid not null, "delta" bigint not null);`);
    this.addSql(`create index if not exists "contact_count_deltas_company_id_index" on "contact_count_deltas" ("company_id") include ("delta");`);
    // One function for the insert and delete triggers: each names only the transition table its event has.
    this.addSql(`create or replace function contact_counts_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into "contact_count_deltas" (company_id, delta) select company_id, count(*) from new_rows where deleted_at is null group by company_id;
  else
    insert into "contact_count_deltas" (company_id, delta) select company_id, -count(*) from old_rows where deleted_at is null group by company_id;
  end if;
  return null;
end $$;`);
    this.addSql(`create or replace function contact_counts_truncated() returns trigger language plpgsql as $$
begin
  delete from "contact_counts";
  delete from "contact_count_deltas";
  return null;
end $$;`);
    // The base of each company with live contacts or pending deltas, as one snapshot sees them; the fold's lock keeps a fold from running meanwhile.
    this.addSql(`create or replace function contact_counts_rebuild() returns void language plpgsql as $$
begin
  perform pg_advisory_xact_lock(hashtext('contact-counts:fold'));
  with counted as (
    select company_id, sum(n)::bigint as live from (
      select company_id, count(*) as n from contacts where deleted_at is null group by company_id
      union all select company_id, -sum(delta) from "contact_count_deltas" group by company_id) s
    group by company_id
  ), cleared as (
    delete from "contact_counts" b where not exists (select 1 from counted c where c.company_id = b.company_id)
  )
  insert into "contact_counts" (company_id, live) select company_id, live from counted
  on conflict (company_id) do update set live = excluded.live;
end $$;`);
    this.addSql(`drop trigger if exists contacts_counted_insert on contacts;`);
    this.addSql(`create trigger contacts_counted_insert after insert on contacts referencing new table as new_rows for each statement execute function contact_counts_changed();`);
    // An update moves a contact in or out of its company's count only by its deletion or its company: a row trigger on those
    // columns, whose condition PostgreSQL checks without calling it, so the updates of every other column (a call's outcome
    // mirrored on its contact, the dialer's) cost nothing. (PostgreSQL takes no column list with transition tables.)
    this.addSql(`create or replace function contact_count_moved() returns trigger language plpgsql as $$
begin
  insert into "contact_count_deltas" (company_id, delta)
    select company_id, sum(d) from (select new.company_id as company_id, case when new.deleted_at is null then 1 else 0 end as d
                                    union all select old.company_id, case when old.deleted_at is null then -1 else 0 end) s
    group by company_id having sum(d) <> 0;
  return null;
end $$;`);
    this.addSql(`drop trigger if exists contacts_counted_update on contacts;`);
    this.addSql(
      `create trigger contacts_counted_update after update of deleted_at, company_id on contacts for each row
         when (old.deleted_at is distinct from new.deleted_at or old.company_id is distinct from new.company_id)
         execute function contact_count_moved();`,
    );
    this.addSql(`drop trigger if exists contacts_counted_delete on contacts;`);
    this.addSql(`create trigger contacts_counted_delete after delete on contacts referencing old table as old_rows for each statement execute function contact_counts_changed();`);
    this.addSql(`drop trigger if exists contacts_counted_truncate on contacts;`);
    this.addSql(`create trigger contacts_counted_truncate after truncate on contacts for each statement execute function contact_counts_truncated();`);
    this.addSql(`select contact_counts_rebuild();`);
  }

  override async down(): Promise<void> {
    for (const event of ['insert', 'update', 'delete', 'truncate']) this.addSql(`drop trigger if exists contacts_counted_${event} on contacts;`);
    this.addSql(`drop function if exists contact_counts_changed(), contact_count_moved(), contact_counts_truncated(), contact_counts_rebuild();`);
    this.addSql(`drop table if exists "contact_count_deltas", "contact_counts";`);
  }
}
