import { Entity, Index, ManyToOne, type Opt, PrimaryKeyProp, Property, type Ref } from '@mikro-orm/core';
import { StampedEntity } from './base.entity';
import { Campaign } from './campaign.entity';
import { Company } from './company.entity';
import { Contact } from './contact.entity';

/**
 * Where the campaign dialer is with one selected contact (docs/campaigns.md):
 * - `queued`: waits for its next attempt, due at `next_attempt_at`;
 * - `calling`: attempt `attempts` is live as call `last_call_id`;
 * - `settled`: done, `outcome` says how (`picked-up`, `failed`, `canceled`, `skipped`, `expired`),
 *   `reason` why when skipped or expired.
 *
 * Keyed by its campaign and contact (a contact is selected once per campaign), with no key of
 * its own: a selection writes each entry into two indexes, this key and the dialer's queue.
 */
@Entity({ tableName: 'campaign_contacts' })
@Index({ properties: ['campaign', 'state', 'nextAttemptAt'] })
export class CampaignContact extends StampedEntity {
  [PrimaryKeyProp]?: ['campaign', 'contact'];

  /**
   * The campaign's company, named by every statement (docs/scaling.md). No foreign key: the
   * campaign's covers it (a company's deletion reaches the entries through its campaigns),
   * and a per-row check of every selected contact is what a selection pass pays for one.
   */
  @ManyToOne({ entity: () => Company, ref: true, createForeignKeyConstraint: false })
  company!: Ref<Company>;

  /**
   * The campaign and the contact: no foreign keys either, each a lookup and a lock for every
   * entry a selection inserts. A trigger on each table deletes the entries of the rows a
   * DELETE removes (migration 20261128040000; docs/campaigns.md, "Which contacts").
   */
  @ManyToOne({ entity: () => Campaign, ref: true, primary: true, createForeignKeyConstraint: false })
  campaign!: Ref<Campaign>;

  @ManyToOne({ entity: () => Contact, ref: true, primary: true, createForeignKeyConstraint: false })
  contact!: Ref<Contact>;

  @Property({ type: 'string', length: 20 })
  state: Opt<'queued' | 'calling' | 'settled'> = 'queued';

  /** Attempts made so far (the live one included). */
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  nextAttemptAt: Opt<Date> | null = null;

  @Property({ type: 'uuid', nullable: true })
  lastCallId: Opt<string> | null = null;

  @Property({ type: 'string', length: 20, nullable: true })
  outcome: Opt<string> | null = null;

  @Property({ type: 'string', length: 100, nullable: true })
  reason: Opt<string> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  settledAt: Opt<Date> | null = null;
}
