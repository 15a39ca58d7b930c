import { z } from 'zod';
import type { PhoneParser } from '../shared/phone';
import { contactFields } from './contact.contract';
import { type CamelCase, camelKeys, camelName } from '../shared/naming';
import { page, requiredText, rule, uuid } from '../shared/common.input';
import { described as d } from '../shared/contract';

export const MAX_CONTACTS_PER_IMPORT = 10_000;

/** REST's documented bodies, in snake_case: one contact, an import of 1 to 10,000, an update. */
export const createContactInput = (parser: PhoneParser) => z.strictObject(contactFields(parser)).partial().required({ phone_number: true });

/** An array of 1 to 10,000 contacts for a bulk import. */
const importOf = <Row extends z.ZodType>(row: Row) => z.array(row).min(1, 'Must hold at least one contact').max(MAX_CONTACTS_PER_IMPORT, `At most ${MAX_CONTACTS_PER_IMPORT} contacts per import`);

export const importContactsInput = (parser: PhoneParser) => importOf(createContactInput(parser));

export const updateContactInput = (parser: PhoneParser) => z.strictObject(contactFields(parser)).partial();

/**
 * Create, import and update as the service validates them: the same fields camelCased, as
 * GraphQL's inputs (derived from them) send them, REST's body renamed at its edge, and the
 * entity names them.
 */
export function contactWrites(parser: PhoneParser) {
  const update = z.strictObject(camelKeys(contactFields(parser))).partial();
  const create = update.required({ phoneNumber: true });
  return { create, import: importOf(create), update };
}
type ContactWrites = ReturnType<typeof contactWrites>;

/** What `ContactService.create` (one, or an import) and `update` take (and validate). */
export type ContactCreateInput = z.input<ContactWrites['create']>;
export type ContactUpdateInput = z.input<ContactWrites['update']>;

/** A validated write. */
export type ContactWrite = z.output<ContactWrites['update']>;

/** The filters of a page of contacts, as REST documents them (`GET /v1/contacts`; GraphQL's `contacts` arguments derive from them); every filter given must match. */
export const pageContactsFields = {
  status: requiredText(50).optional().describe('Only contacts of this status (active, inactive).'),
  campaign_id: uuid().optional().describe('Only contacts added to this campaign.'),
  tag_name: requiredText(200).optional().describe('Only contacts with exactly this tag.'),
  search: requiredText(100)
    .optional()
    .describe(
      'A name or a phone number. Words: every word is part of the first or last name, in any order and case (`ada lovel` finds Ada Lovelace). ' +
        'No letters: a number in any format finds that number (`(415) 555-2671` finds +14155552671); part of a number finds every number containing its digits.',
    ),
};

/** `GET /v1/contacts`: REST's documented query string. */
export const pageContactsQuery = page().extend(pageContactsFields);

/** A page of contacts, newest first, optionally filtered, as the service validates it (GraphQL's `contacts`, REST's query renamed at its edge). */
export const pageContactsInput = page().extend(camelKeys(pageContactsFields));
export type PageContactsInput = z.input<typeof pageContactsInput>;

/** Most data rows one CSV import takes (the header row not counted). */
export const MAX_CSV_ROWS = 100_000;
/** Largest CSV file one import takes, in bytes. */
export const MAX_CSV_BYTES = 64 * 1024 * 1024;

const csvHeader = () => requiredText(200).meta({ description: 'A header of the CSV file, as written in its first row.' });

/**
 * Each mapping key of a CSV import -> the contact field it feeds, as REST documents them
 * (docs/rest.md, "Importing contacts from CSV") and as a header names itself when no
 * mapping is given: the contact's own field names, and the names the import first took for
 * them (`first_name`, `tag`...).
 */
export const CSV_HEADER_KEYS = {
  phone_number: 'phone_number',
  firstname: 'firstname',
  first_name: 'firstname',
  lastname: 'lastname',
  last_name: 'lastname',
  tag_name: 'tag_name',
  tag: 'tag_name',
  category_name: 'category_name',
  category: 'category_name',
  source_name: 'source_name',
  notes: 'notes',
} as const satisfies Record<string, keyof z.output<ReturnType<typeof createContactInput>>>;
type CsvHeaderKey = keyof typeof CSV_HEADER_KEYS;

/**
 * The mapping keys as the service takes them (GraphQL's ContactCsvMappingInput; REST's keys
 * renamed at its edge) -> the contact field each feeds, both camelCased. camelCasing keeps
 * every alias apart from its field's own name, so each alias still maps to its field:
 * `first_name` -> `firstName` beside `firstname` (the contact's field, named so on every
 * surface), `last_name` -> `lastName` beside `lastname`, `tag` beside `tagName`, `category`
 * beside `categoryName`. A row's errors name the key given (`[14].firstName`, which REST
 * names `[14].first_name` again).
 */
export const CSV_MAPPING_KEYS = Object.fromEntries(Object.entries(CSV_HEADER_KEYS).map(([key, field]) => [camelName(key), camelName(field)])) as {
  [K in CsvHeaderKey as CamelCase<K>]: CamelCase<(typeof CSV_HEADER_KEYS)[K]>;
} satisfies Record<string, keyof ContactCreateInput>;
export type CsvMappingKey = keyof typeof CSV_MAPPING_KEYS;
export type CsvContactField = (typeof CSV_MAPPING_KEYS)[CsvMappingKey];

/** The column feeding each contact field, as the mapping's keys for it say (GraphQL's ContactCsvMappingInput). */
const CSV_COLUMNS: Record<(typeof CSV_HEADER_KEYS)[CsvHeaderKey], string> = {
  phone_number: 'Header of the phone number column (any format; stored in E.164). Required when any field is mapped.',
  firstname: 'Header of the first name column.',
  lastname: 'Header of the last name column.',
  tag_name: 'Header of the tag column.',
  category_name: 'Header of the category column.',
  source_name: 'Header of the source column.',
  notes: 'Header of the notes column.',
};

/** The mapping's fields as REST documents them: each key's header, and the metadata headers. */
export const contactCsvMappingFields = {
  ...(Object.fromEntries(Object.entries(CSV_HEADER_KEYS).map(([key, field]) => [key, d(csvHeader().optional(), CSV_COLUMNS[field])])) as Record<
    CsvHeaderKey,
    z.ZodOptional<ReturnType<typeof csvHeader>>
  >),
  metadata: d(
    z
      .array(csvHeader().refine((name) => name.trim() !== '__proto__', 'Not allowed as a metadata key (it would set an object prototype)'))
      .max(100, 'At most 100 metadata columns')
      .optional(),
    'Headers of the columns copied into metadata, under their header name.',
  ),
};

/**
 * Which CSV column feeds which contact field, by header name, as REST documents it (its
 * query string and `mapping` part; REST refuses a key it does not document, listing these).
 * `metadata` columns are copied into the contact's `metadata` under their header name. A
 * mapping that names no field lets the header map itself: a column named as a mapping key
 * feeds its field.
 */
export const contactCsvMapping = z
  .looseObject(contactCsvMappingFields)
  .meta({ id: 'ContactCsvMapping', description: 'Header names of the CSV columns feeding each contact field; none: the header maps itself.' });

/** The mapping as the service reads it: the same keys camelCased (`CSV_MAPPING_KEYS`). */
const csvMapping = z.strictObject(camelKeys(contactCsvMappingFields));
export type ContactCsvMapping = z.output<typeof csvMapping>;

/** What an import does with a row whose number a contact of the company already has (or an earlier row had). */
export const ON_DUPLICATE = ['skip', 'update'] as const;

/** What a CSV import is told besides the file (GraphQL's ImportContactsCsvInput derives from it). */
export const importContactsCsvInput = z.strictObject({
  mapping: d(
    csvMapping.optional(),
    'The header of the column feeding each field; left out (or naming no field), columns named as the contact fields (phone_number, firstname, lastname, tag_name, category_name, source_name, notes) map themselves.',
  ),
  onDuplicate: d(
    z.enum(ON_DUPLICATE, { error: rule(`Must be one of ${ON_DUPLICATE.join(', ')}`) }).default('skip'),
    'What a row does whose number a contact of your company already has: SKIP (the default) or UPDATE that contact.',
  ),
  campaignId: d(uuid().nullish(), 'Attach every contact to this campaign of your company.'),
  dryRun: d(z.boolean({ error: rule('Must be true or false') }).nullish(), 'True: check the whole file, write nothing.'),
});
export type ContactCsvImportInput = z.input<typeof importContactsCsvInput>;
