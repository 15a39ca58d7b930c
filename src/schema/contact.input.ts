import { z } from 'zod';
import { type ContactCsvImportInput, contactCsvMappingFields, importContactsCsvInput, ON_DUPLICATE } from '../services/contacts/contact.input';
import { described } from '../services/shared/contract';
import { closedSet } from './closed-set';
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
closedSet('CsvOnDuplicate', ON_DUPLICATE, 'What a CSV row does whose number a contact of the company already has.', {
  skip: 'Left out (the default).',
  update: 'Updates that contact with the fields the row holds.',
});

/** The mapping's keys GraphQL takes: the aliases that camelCase apart from the contact's own field names (`firstName`, `tag`). */
export const ContactCsvMappingInput = contractInputType(
  'ContactCsvMappingInput',
  'Which CSV column feeds which contact field: each value is a header name, as written in the first row.',
  contactCsvMappingFields,
  { omit: ['firstname', 'lastname', 'tag_name', 'category_name'] },
);

/** A CSV import as GraphQL sends it: the text, and the options left out or null. */
export type ImportContactsCsvInput = { csv: string } & { [K in keyof ContactCsvImportInput]?: ContactCsvImportInput[K] | null };

export const ImportContactsCsvInput = contractInputType<ImportContactsCsvInput>(
  'ImportContactsCsvInput',
  'A CSV file of contacts and how to read it.',
  {
    csv: described(z.string(), 'The CSV text, header row first. Requests are limited to 5 MiB: larger files go through REST (POST /v1/contacts/import).'),
    ...importContactsCsvInput.shape,
  },
  { required: ['csv'], typedAs: { mapping: () => ContactCsvMappingInput } },
);
