import { Entity, Property } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';

/** The tenant: every record of the product belongs to exactly one company (templates to none). */
@Entity({ tableName: 'companies' })
export class Company extends BaseEntity {
  @Property({ type: 'string', length: 200 })
  name!: string;
}
