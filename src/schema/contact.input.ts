import { Field, ID, InputType } from 'type-graphql';
import { contactFields, contactInputOverride } from '../services/contacts/contact.contract';
import { contractInputType, shapeOnly } from './contract.type';

export const UpdateContactInput = contractInputType(
  'UpdateContactInput',
  'Partial update of a contact: fields left out stay as they were.',
  contactFields(shapeOnly),
  contactInputOverride,
);

export const CreateContactInput = contractInputType('CreateContactInput', 'A new contact.', contactFields(shapeOnly), {
  ...contactInputOverride,
  required: ['phone_number'],
});

@InputType('ContactCsvMappingInput', { description: 'Which CSV column feeds which contact field: each value is a header name, as written in the first row.' })
export class ContactCsvMappingInput {
  @Field({ description: 'Header of the phone number column (any format; stored in E.164).' })
  phoneNumber!: string;

  @Field({ nullable: true, description: 'Header of the first name column.' })
  firstName?: string;

  @Field({ nullable: true, description: 'Header of the last name column.' })
  lastName?: string;

  @Field({ nullable: true, description: 'Header of the tag column.' })
  tag?: string;

  @Field({ nullable: true, description: 'Header of the category column.' })
  category?: string;

  @Field(() => [String], { nullable: true, description: 'Headers of the columns copied into metadata, under their header name.' })
  metadata?: string[];
}

@InputType('ImportContactsCsvInput', { description: 'A CSV file of contacts and how to read it.' })
export class ImportContactsCsvInput {
  @Field({ description: 'The CSV text, header row first. Requests are limited to 5 MiB: larger files go through REST (POST /v1/contacts/import).' })
  csv!: string;

  @Field(() => ContactCsvMappingInput, { description: 'The header of the column feeding each field.' })
  mapping!: ContactCsvMappingInput;

  @Field(() => ID, { nullable: true, description: 'Attach every contact to this campaign of your company.' })
  campaignId?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'True: check the whole file, write nothing.' })
  dryRun?: boolean | null;
}
