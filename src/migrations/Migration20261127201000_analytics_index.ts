import { Migration } from '@mikro-orm/migrations';

/**
 * The index the analytics query reads (docs/analytics.md, docs/performance.md "Volume"): a
 * company's live calls by time, with every column its sums read (status, answered, duration,
 * cost) and its groups (campaign, agent) included, so a range of a month of calls is an
 * index-only scan of that range instead of a read of the calls' wide rows (their transcripts
 * and metadata) or a scan of the whole table. Built CONCURRENTLY, outside a transaction, as
 * Migration20261127170000_volume_indexes is: a failed build is dropped first, so running the
 * migration again finishes it.
 */
export class Migration20261127201000_analytics_index extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(`drop index concurrently if exists "calls_analytics_index";`);
    this.addSql(
      `create index concurrently "calls_analytics_index" on "calls" ("company_id", "created_at") include ("call_status", "started_at", "call_duration", "cost", "campaign_id", "ai_agent_id") where "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index concurrently if exists "calls_analytics_index";`);
  }
}
