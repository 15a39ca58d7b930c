import { Entity, Index, ManyToOne, Property, type Ref, Unique } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';

/**
 * A number the company must never call: make-call refuses it and the campaign dialer skips
 * it. Listed once per company; stored in E.164, so every format of a number matches.
 */
@Entity({ tableName: 'do_not_call_numbers' })
@Unique({ properties: ['company', 'phoneNumber'] })
@Index({ properties: ['company', 'createdAt'] })
export class DoNotCallNumber extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  /** E.164. */
  @Property({ type: 'string', length: 20 })
  phoneNumber!: string;

  /** Free text: why the number is listed ("customer asked"). */
  @Property({ type: 'text', nullable: true })
  reason: string | null = null;
}
