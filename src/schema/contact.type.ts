import { LastCallStatus } from './call.enum';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Contact } from '../entities';
import { ConnectionType } from './connection.type';
import { Node } from './node.type';

/** A person to call. `lastCall*` mirror the outcome of the latest call to the contact. */
@ObjectType('Contact', { implements: Node, simpleResolvers: true, description: 'A person campaigns call, with the outcome of the latest call to them.' })
export class ContactType implements Node {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field({ description: 'First name.' })
  firstname!: string;

  @Field({ description: 'Last name.' })
  lastname!: string;

  @Field({ description: 'E.164.' })
  phoneNumber!: string;

  @Field({ description: 'Country calling code, digits only (1 for +1).' })
  numberCountryCode!: string;

  @Field(() => GraphQLJSONObject, { description: 'Free-form data (agent and flow variables may read it).' })
  metadata!: Record<string, unknown>;

  @Field(() => LastCallStatus, { nullable: true, description: 'Outcome of the latest call; null before the first.' })
  lastCallStatus!: LastCallStatus | null;

  @Field(() => Date, { nullable: true, description: 'When the latest call was made; null before the first.' })
  lastCallAt!: Date | null;

  @Field(() => Int, { nullable: true, description: 'Seconds the latest call was answered; null before the first.' })
  lastCallDuration!: number | null;

  @Field(() => String, { nullable: true, description: 'Feedback on the latest call; null when none.' })
  lastCallFeedback!: string | null;

  @Field({ description: 'Source list, free text (campaigns select contacts by it).' })
  sourceName!: string;

  @Field({ description: 'Tag, free text (campaigns select contacts by it).' })
  tagName!: string;

  @Field({ description: 'Category, free text (campaigns select contacts by it).' })
  categoryName!: string;

  @Field({ description: 'Free-form notes.' })
  notes!: string;

  @Field(() => ID, { nullable: true, description: 'Campaign the contact was added to; null when none.' })
  campaignId!: string | null;

  @Field({ description: 'Active contacts are called; inactive ones are not.' })
  status!: string;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the record was deleted; null while it exists.' })
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
    lastCallStatus: c.lastCallStatus as LastCallStatus | null,
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

@ObjectType('ContactCsvImport', { description: 'What a CSV import did.' })
export class ContactCsvImportType {
  @Field(() => Int, { description: 'Contacts written; in a dry run, the contacts the file holds.' })
  imported!: number;

  @Field({ description: 'True when nothing was written.' })
  dryRun!: boolean;
}
