import { randomUUID } from 'node:crypto';
import { type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** The two timestamps every table has. Timestamps are timestamptz, stamped by the app. */
export abstract class StampedEntity {
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}

/** Id and the two timestamps: what every table but one keyed otherwise (`CampaignContact`) has. */
export abstract class BaseEntity extends StampedEntity {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();
}
