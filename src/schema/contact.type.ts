import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Contact } from '../entities';
import { ConnectionType } from './connection.type';

/** A person to call. `lastCall*` mirror the outcome of the latest call to the contact. */
@ObjectType('Contact', { simpleResolvers: true })
export class ContactType {
  @Field(() => ID)
  id!: string;

  @Field()
  firstname!: string;

  @Field()
  lastname!: string;

  @Field({ description: 'E.164.' })
  phoneNumber!: string;

  @Field({ description: 'Country calling code, digits only (1 for +1).' })
  numberCountryCode!: string;

  @Field(() => GraphQLJSONObject)
  metadata!: Record<string, unknown>;

  @Field(() => String, { nullable: true })
  lastCallStatus!: string | null;

  @Field(() => Date, { nullable: true })
  lastCallAt!: Date | null;

  @Field(() => Int, { nullable: true })
  lastCallDuration!: number | null;

  @Field(() => String, { nullable: true })
  lastCallFeedback!: string | null;

  @Field()
  sourceName!: string;

  @Field()
  tagName!: string;

  @Field()
  categoryName!: string;

  @Field()
  notes!: string;

  @Field(() => ID, { nullable: true })
  campaignId!: string | null;

  @Field()
  status!: string;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;

  @Field(() => Date, { nullable: true })
  deletedAt!: Date | null;
}

export const ContactConnection = ConnectionType('Contact', ContactType);

/** The one mapping from the contact entity to its GraphQL shape. */
export function toContactType(c: Contact): ContactType {
  return {
    id: c.id,
    firstname: c.firstname,
    lastname: c.lastname,
    phoneNumber: c.phoneNumber,
    numberCountryCode: c.numberCountryCode,
    metadata: c.metadata,
    lastCallStatus: c.lastCallStatus,
    lastCallAt: c.lastCallAt,
    lastCallDuration: c.lastCallDuration,
    lastCallFeedback: c.lastCallFeedback,
    sourceName: c.sourceName,
    tagName: c.tagName,
    categoryName: c.categoryName,
    notes: c.notes,
    campaignId: c.campaign?.id ?? null,
    status: c.status,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    deletedAt: c.deletedAt,
  };
}
