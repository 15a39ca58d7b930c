import { ConcurrentIndexes } from './concurrent-indexes';

/**
 * The unique index that becomes `campaign_contacts`' primary key (`campaign_id`, `contact_id`)
 * in the next migration (docs/campaigns.md, "Which contacts"), built beside the table's
 * unique constraint on the same columns without blocking its writes.
 */
export class Migration20261129020000_campaign_entries_key_index extends ConcurrentIndexes {
  protected readonly indexes = [{ name: 'campaign_contacts_key', table: 'campaign_contacts', definition: '("campaign_id", "contact_id")', unique: true }];
}
