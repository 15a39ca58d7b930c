import { z } from 'zod';
import type { PhoneParser } from '../phone';
import { jsonObject, page, phone, requiredText, rule, text, uuid } from './common';

export const MAX_CONTACTS_PER_IMPORT = 10_000;

const contactFields = (parser: PhoneParser) => ({
  firstname: text(200),
  lastname: text(200),
  phone_number: phone(parser),
  metadata: jsonObject(),
  source_name: text(200),
  tag_name: text(200),
  category_name: text(200),
  notes: text(10_000),
  campaign_id: uuid().nullable(),
  status: requiredText(50),
});

export const createContactInput = (parser: PhoneParser) =>
  z.strictObject(contactFields(parser)).partial().required({ phone_number: true });
export type CreateContactInput = z.output<ReturnType<typeof createContactInput>>;

/** An array of 1 to 10,000 contacts for a bulk import. */
export const importContactsInput = (parser: PhoneParser) =>
  z
    .array(createContactInput(parser))
    .min(1, 'Must hold at least one contact')
    .max(MAX_CONTACTS_PER_IMPORT, `At most ${MAX_CONTACTS_PER_IMPORT} contacts per import`);

export const updateContactInput = (parser: PhoneParser) => z.strictObject(contactFields(parser)).partial();

/** A page of contacts, optionally only those of one status or one campaign. */
export const pageContactsInput = page().extend({
  status: requiredText(50).optional(),
  campaign_id: uuid().optional(),
});

/** Most data rows one CSV import takes (the header row not counted). */
export const MAX_CSV_ROWS = 100_000;
/** Largest CSV file one import takes, in bytes. */
export const MAX_CSV_BYTES = 64 * 1024 * 1024;

const csvHeader = () => requiredText(200).meta({ description: 'A header of the CSV file, as written in its first row.' });

/**
 * Which CSV column feeds which contact field, by header name. The keys are the import's own
 * names; a row's errors use them (`[14].first_name`). `metadata` columns are copied into the
 * contact's `metadata` under their header name.
 */
export const contactCsvMapping = z
  .strictObject({
    phone_number: csvHeader(),
    first_name: csvHeader().optional(),
    last_name: csvHeader().optional(),
    tag: csvHeader().optional(),
    category: csvHeader().optional(),
    metadata: z
      .array(csvHeader().refine((name) => name.trim() !== '__proto__', 'Not allowed as a metadata key (it would set an object prototype)'))
      .max(100, 'At most 100 metadata columns')
      .optional(),
  })
  .meta({ id: 'ContactCsvMapping', description: 'Header names of the CSV columns feeding each contact field.' });
export type ContactCsvMapping = z.output<typeof contactCsvMapping>;

/** The mapping key of each contact field a CSV column can feed (metadata aside). */
export const CSV_CONTACT_FIELDS = {
  phone_number: 'phone_number',
  first_name: 'firstname',
  last_name: 'lastname',
  tag: 'tag_name',
  category: 'category_name',
} as const satisfies Record<Exclude<keyof ContactCsvMapping, 'metadata'>, keyof CreateContactInput>;

/** What a CSV import is told besides the file. */
export const importContactsCsvInput = z.strictObject({
  mapping: contactCsvMapping,
  campaign_id: uuid().nullish(),
  dry_run: z.boolean({ error: rule('Must be true or false') }).nullish(),
});
