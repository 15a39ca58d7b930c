import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';

@InputType('UpdateContactInput', { description: 'Partial update of a contact: fields left out stay as they were.' })
export class UpdateContactInput {
  @Field({ nullable: true, description: 'Any format; stored in E.164.' })
  phoneNumber?: string;

  @Field({ nullable: true, description: 'First name.' })
  firstname?: string;

  @Field({ nullable: true, description: 'Last name.' })
  lastname?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form data.' })
  metadata?: Record<string, unknown>;

  @Field({ nullable: true, description: 'Source list, free text (campaigns select contacts by it).' })
  sourceName?: string;

  @Field({ nullable: true, description: 'Tag, free text (campaigns select contacts by it).' })
  tagName?: string;

  @Field({ nullable: true, description: 'Category, free text (campaigns select contacts by it).' })
  categoryName?: string;

  @Field({ nullable: true, description: 'Free-form notes.' })
  notes?: string;

  @Field(() => ID, { nullable: true, description: 'Adds the contact to this campaign; null removes it.' })
  campaignId?: string | null;

  @Field({ nullable: true, description: 'Active or inactive.' })
  status?: string;
}

@InputType('CreateContactInput', { description: 'A new contact.' })
export class CreateContactInput extends UpdateContactInput {
  @Field({ description: 'Any format; stored in E.164.' })
  override phoneNumber!: string;
}

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
