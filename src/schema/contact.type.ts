import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { contactContract, type ContactView } from '../services/contacts/contact.contract';
import { CSV_PREVIEW_ROWS, CSV_ROW_ACTIONS, type CsvContactFields, type CsvRowAction } from '../services/contacts/contact.service';
import { MAX_LISTED_ERRORS } from '../services/contacts/contact-csv';
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

export const CsvRowActionEnum = Object.fromEntries(CSV_ROW_ACTIONS.map((v) => [v.toUpperCase(), v]));
registerEnumType(CsvRowActionEnum, {
  name: 'CsvRowAction',
  description: 'What an import does with a good CSV row.',
  valuesConfig: {
    CREATE: { description: 'Creates a contact.' },
    UPDATE: { description: 'Updates the contact of the company having its number (onDuplicate UPDATE).' },
    DUPLICATE: { description: "Nothing: its number is the company's already, or an earlier row's." },
  },
});

@ObjectType('ContactCsvFields', { description: 'The fields a CSV row writes, as the contact stores them; null: left empty (a new contact) or as it is (an update).' })
export class ContactCsvFieldsType implements CsvContactFields {
  @Field({ description: 'E.164.' })
  phoneNumber!: string;

  @Field({ description: 'The country calling code of the number.' })
  numberCountryCode!: string;

  @Field(() => String, { nullable: true, description: 'First name.' })
  firstname!: string | null;

  @Field(() => String, { nullable: true, description: 'Last name.' })
  lastname!: string | null;

  @Field(() => String, { nullable: true, description: 'Tag.' })
  tagName!: string | null;

  @Field(() => String, { nullable: true, description: 'Category.' })
  categoryName!: string | null;

  @Field(() => String, { nullable: true, description: 'Source list.' })
  sourceName!: string | null;

  @Field(() => String, { nullable: true, description: 'Notes.' })
  notes!: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The metadata columns, by header.' })
  metadata!: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: 'The campaign every contact is attached to (campaignId of the import).' })
  campaignId!: string | null;
}

@ObjectType('ContactCsvSampleRow', { description: 'A good row of the file as the import would store it.' })
export class ContactCsvSampleRowType {
  @Field(() => Int, { description: 'The line, as a spreadsheet numbers it (the header is line 1).' })
  line!: number;

  @Field(() => CsvRowActionEnum, { description: 'What the import does with the row.' })
  action!: CsvRowAction;

  @Field(() => ContactCsvFieldsType, { description: 'The fields the row writes, as stored.' })
  contact!: CsvContactFields;
}

@ObjectType('ContactCsvRowError', { description: 'A problem of a row, or of the mapping against the header.' })
export class ContactCsvRowErrorType {
  @Field(() => Int, { nullable: true, description: "The row's line; null for a problem of the mapping against the header." })
  line!: number | null;

  @Field(() => String, { nullable: true, description: 'The mapping key (firstName), metadata.<header>, mapping.<key>, mapping or file; null: the whole row.' })
  field!: string | null;

  @Field({ description: 'What is wrong.' })
  message!: string;
}

@ObjectType('ContactCsvPreview', { description: 'What a dry run found: how the file was read, its first good rows, every problem of its rows.' })
export class ContactCsvPreviewType {
  @Field({ description: 'The delimiter detected: a comma, a semicolon or a tab.' })
  delimiter!: string;

  @Field({ description: 'The encoding the file was read in: utf-8 (a file that is not UTF-8 is refused).' })
  encoding!: string;

  @Field(() => [String], { description: "The header row's names, trimmed." })
  header!: string[];

  @Field(() => [ContactCsvSampleRowType], { description: `The first ${CSV_PREVIEW_ROWS} good rows.` })
  sample!: ContactCsvSampleRowType[];

  @Field(() => Int, { description: 'Data rows with at least one problem.' })
  invalidRows!: number;

  @Field(() => [ContactCsvRowErrorType], { description: `The first ${MAX_LISTED_ERRORS} problems: the mapping's first, then by line.` })
  errors!: ContactCsvRowErrorType[];

  @Field(() => Int, { description: 'Problems in all.' })
  errorCount!: number;
}

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

  @Field(() => ContactCsvPreviewType, { nullable: true, description: "A dry run's preview; null for an import." })
  preview!: ContactCsvPreviewType | null;
}
