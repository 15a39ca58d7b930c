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
  @Field(() => Int, { description: 'Contacts written; in a dry run, the contacts the file holds.' })
  imported!: number;

  @Field({ description: 'True when nothing was written.' })
  dryRun!: boolean;
}
