import { randomUUID } from 'node:crypto';
import { type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** Id and the two timestamps every table has. Timestamps are timestamptz, stamped by the app. */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}
