import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { contactContract, type ContactView } from '../services/contacts/contact.contract';
import { ConnectionType } from './connection.type';
import { contractObjectType } from './contract.type';
import { Node } from './node.type';

/** A person to call, from its contract. `campaign` resolves on demand. */
export const ContactType = contractObjectType(contactContract, {
  implements: Node,
  description: 'A person campaigns call, with the outcome of the latest call to them.',
});
export type ContactType = ContactView;

export const ContactConnection = ConnectionType('Contact', ContactType);

@ObjectType('ContactCsvImport', { description: 'What a CSV import did.' })
export class ContactCsvImportType {
  @Field(() => Int, { description: 'Data rows read (blank lines aside).' })
  rows!: number;

  @Field(() => Int, { description: 'Contacts created; in a dry run, those that would be.' })
  imported!: number;

  @Field(() => Int, { description: 'Contacts updated from a row with their number (onDuplicate UPDATE), by number; in a dry run, those that would be.' })
  updated!: number;

  @Field(() => Int, { description: 'Rows whose number a contact of your company already had, or an earlier row of the file.' })
  duplicates!: number;

  @Field(() => GraphQLJSONObject, { description: 'The columns read: mapped (each mapping key used -> its header) and metadata (the metadata headers).' })
  columns!: object;

  @Field({ description: 'True when nothing was written.' })
  dryRun!: boolean;
}
