import { Field, ID, ObjectType } from 'type-graphql';
import type { DoNotCallNumber } from '../entities';
import { ConnectionType } from './connection.type';

/** A number the company must never call: makeCall refuses it, campaigns skip it. */
@ObjectType('DoNotCallNumber', { simpleResolvers: true, description: 'A number on your do-not-call list: no call reaches it.' })
export class DoNotCallNumberType {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field({ description: 'E.164.' })
  phoneNumber!: string;

  @Field(() => String, { nullable: true, description: 'Why the number is listed, as given when it was added.' })
  reason!: string | null;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;
}

export function toDoNotCallNumberType(n: DoNotCallNumber): DoNotCallNumberType {
  return { id: n.id, phoneNumber: n.phoneNumber, reason: n.reason, createdAt: n.createdAt };
}

export const DoNotCallNumberConnection = ConnectionType('DoNotCallNumber', DoNotCallNumberType);
