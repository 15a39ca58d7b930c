import { Entity, Index, ManyToOne, type Opt, Property, type Ref } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { Campaign } from './campaign.entity';
import { Company } from './company.entity';

/**
 * Every value a contact's `last_call_status` can hold, from the outcome of its latest call
 * (`contactStatusOf`, docs/calls.md): the OpenAPI and GraphQL enums derive from this list.
 */
export const LAST_CALL_STATUSES = ['in-progress', 'picked-up', 'voicemail', 'busy', 'no-answer', 'unreachable', 'canceled'] as const;
export type LastCallStatus = (typeof LAST_CALL_STATUSES)[number];

/** A person to call. `last_call_*` mirror the outcome of the latest call to the contact. */
@Entity({ tableName: 'contacts' })
@Index({ properties: ['company', 'createdAt'] })
@Index({ properties: ['campaign'] })
// The live contacts, newest first: the lists' keyset pages and their count from the index alone (docs/performance.md, "Volume").
@Index({
  name: 'contacts_live_index',
  expression: `create index "contacts_live_index" on "contacts" ("company_id", "created_at", "id") where "deleted_at" is null`,
})
@Index({ properties: ['company', 'phoneNumber'] })
@Index({ properties: ['company', 'tagName', 'createdAt'] })
// Trigram indexes of the search (Migration20261127175000_contact_search); the expressions are the migration's.
@Index({ name: 'contacts_full_name_trgm_index', expression: `create index "contacts_full_name_trgm_index" on "contacts" using gin (("firstname" || ' ' || "lastname") gin_trgm_ops)` })
@Index({ name: 'contacts_phone_number_trgm_index', expression: 'create index "contacts_phone_number_trgm_index" on "contacts" using gin ("phone_number" gin_trgm_ops)' })
export class Contact extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @ManyToOne({ entity: () => Campaign, ref: true, nullable: true, deleteRule: 'set null' })
  campaign: Ref<Campaign> | null = null;

  @Property({ type: 'string', length: 200 })
  firstname: Opt<string> = '';

  @Property({ type: 'string', length: 200 })
  lastname: Opt<string> = '';

  /** E.164. */
  @Property({ type: 'string', length: 20 })
  phoneNumber!: string;

  /** Country calling code, digits only (`1` for +1). */
  @Property({ type: 'string', length: 4 })
  numberCountryCode!: string;

  @Property({ type: 'json' })
  metadata: Opt<Record<string, unknown>> = {};

  @Property({ type: 'string', length: 50, nullable: true })
  lastCallStatus: Opt<LastCallStatus> | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastCallAt: Opt<Date> | null = null;

  @Property({ type: 'integer', nullable: true })
  lastCallDuration: Opt<number> | null = null;

  @Property({ type: 'text', nullable: true })
  lastCallFeedback: Opt<string> | null = null;

  @Property({ type: 'string', length: 200 })
  sourceName: Opt<string> = '';

  @Property({ type: 'string', length: 200 })
  tagName: Opt<string> = '';

  @Property({ type: 'string', length: 200 })
  categoryName: Opt<string> = '';

  @Property({ type: 'text' })
  notes: Opt<string> = '';

  @Property({ type: 'string', length: 50 })
  status: Opt<string> = 'active';

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deletedAt: Opt<Date> | null = null;
}
