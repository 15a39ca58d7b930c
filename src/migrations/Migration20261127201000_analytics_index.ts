import { ConcurrentIndexes } from './concurrent-indexes';

/**
 * The index the analytics query reads (docs/analytics.md, docs/performance.md "Volume"): a
 * company's live calls by time, with every column its sums read (status, answered, duration,
 * cost) and its groups (campaign, agent) included, so a range of a month of calls is an
 * index-only scan of that range instead of a read of the calls' wide rows (their transcripts
 * and metadata) or a scan of the whole table.
 */
export class Migration20261127201000_analytics_index extends ConcurrentIndexes {
  protected readonly indexes = [
    {
      name: 'calls_analytics_index',
      table: 'calls',
      definition: '("company_id", "created_at") include ("call_status", "started_at", "call_duration", "cost", "campaign_id", "ai_agent_id") where "deleted_at" is null',
    },
  ];
}
