import { Entity, Index, ManyToOne, type Opt, Property, type Ref } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';

/** An API key. Only its SHA-256 hash is stored; the key itself is shown once, at creation. */
@Entity({ tableName: 'api_keys' })
export class ApiKey extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  @Index()
  company!: Ref<Company>;

  /** First characters of the key, to recognise it in listings without revealing it. */
  @Property({ type: 'string', length: 20 })
  prefix!: string;

  @Property({ type: 'string', length: 64, unique: true, hidden: true })
  hash!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revokedAt: Opt<Date> | null = null;
}
