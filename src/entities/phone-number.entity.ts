import { Entity, ManyToOne, type Opt, Property, type Ref, Unique } from '@mikro-orm/core';
import { AiAgent } from './ai-agent.entity';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';

/**
 * A number the company owns: it calls from it, and its agent answers calls to it. Stored in
 * E.164, so equal strings are equal numbers; unique across companies: a number belongs to one
 * company at a time (removing it deletes the row, so every row is a number in use).
 */
@Entity({ tableName: 'phone_numbers' })
@Unique({ properties: ['phoneNumber'] })
export class PhoneNumber extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @Property({ type: 'string', length: 20 })
  phoneNumber!: string;

  /** Country calling code, digits only (`1` for +1). */
  @Property({ type: 'string', length: 4 })
  countryCode!: string;

  @Property({ type: 'string', length: 200 })
  label: Opt<string> = '';

  /** The agent that answers incoming calls to this number; none: they are rejected (docs/calls.md). */
  @ManyToOne({ entity: () => AiAgent, ref: true, nullable: true, deleteRule: 'set null' })
  inboundAgent: Opt<Ref<AiAgent>> | null = null;
}
