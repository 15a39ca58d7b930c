import { Field, ID, InputType, registerEnumType } from 'type-graphql';
import { ON_DUPLICATE } from '../services/contacts/contact.input';
import { contactFields, contactInputOverride } from '../services/contacts/contact.contract';
import type { ContactCreateInput, ContactUpdateInput } from '../services/contacts/contact.input';
import { contractInputType, shapeOnly } from './contract.type';

export const UpdateContactInput = contractInputType<ContactUpdateInput>(
  'UpdateContactInput',
  'Partial update of a contact: fields left out stay as they were.',
  contactFields(shapeOnly),
  contactInputOverride,
);

export const CreateContactInput = contractInputType<ContactCreateInput>('CreateContactInput', 'A new contact.', contactFields(shapeOnly), {
  ...contactInputOverride,
  required: ['phone_number'],
});

/** `on_duplicate` of a CSV import, in GraphQL's upper case. */
export const CsvOnDuplicate = Object.fromEntries(ON_DUPLICATE.map((v) => [v.toUpperCase(), v]));
registerEnumType(CsvOnDuplicate, {
  name: 'CsvOnDuplicate',
  description: 'What a CSV row does whose number a contact of the company already has.',
  valuesConfig: { SKIP: { description: 'Left out (the default).' }, UPDATE: { description: 'Updates that contact with the fields the row holds.' } },
});

@InputType('ContactCsvMappingInput', { description: 'Which CSV column feeds which contact field: each value is a header name, as written in the first row.' })
export class ContactCsvMappingInput {
  @Field({ nullable: true, description: 'Header of the phone number column (any format; stored in E.164). Required when any field is mapped.' })
  phoneNumber?: string;

  @Field({ nullable: true, description: 'Header of the first name column.' })
  firstName?: string;

  @Field({ nullable: true, description: 'Header of the last name column.' })
  lastName?: string;

  @Field({ nullable: true, description: 'Header of the tag column.' })
  tag?: string;

  @Field({ nullable: true, description: 'Header of the category column.' })
  category?: string;

  @Field({ nullable: true, description: 'Header of the source column.' })
  sourceName?: string;

  @Field({ nullable: true, description: 'Header of the notes column.' })
  notes?: string;

  @Field(() => [String], { nullable: true, description: 'Headers of the columns copied into metadata, under their header name.' })
  metadata?: string[];
}

@InputType('ImportContactsCsvInput', { description: 'A CSV file of contacts and how to read it.' })
export class ImportContactsCsvInput {
  @Field({ description: 'The CSV text, header row first. Requests are limited to 5 MiB: larger files go through REST (POST /v1/contacts/import).' })
  csv!: string;

  @Field(() => ContactCsvMappingInput, {
    nullable: true,
    description:
      'The header of the column feeding each field; left out (or naming no field), columns named as the contact fields (phone_number, firstname, lastname, tag_name, category_name, source_name, notes) map themselves.',
  })
  mapping?: ContactCsvMappingInput | null;

  @Field(() => CsvOnDuplicate, { nullable: true, description: 'What a row does whose number a contact of your company already has: SKIP (the default) or UPDATE that contact.' })
  onDuplicate?: (typeof ON_DUPLICATE)[number] | null;

  @Field(() => ID, { nullable: true, description: 'Attach every contact to this campaign of your company.' })
  campaignId?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'True: check the whole file, write nothing.' })
  dryRun?: boolean | null;
}
