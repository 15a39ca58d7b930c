import { z } from 'zod';
import type { PhoneParser } from '../shared/phone';
import { contactFields } from './contact.contract';
import { camelKeys } from '../shared/naming';
import { page, requiredText, rule, uuid } from '../shared/common.input';

export const MAX_CONTACTS_PER_IMPORT = 10_000;

export const createContactInput = (parser: PhoneParser) =>
  z.strictObject(contactFields(parser)).partial().required({ phone_number: true });
export type CreateContactInput = z.output<ReturnType<typeof createContactInput>>;

/** An array of 1 to 10,000 contacts for a bulk import. */
const importOf = <Row extends z.ZodType>(row: Row) =>
  z.array(row).min(1, 'Must hold at least one contact').max(MAX_CONTACTS_PER_IMPORT, `At most ${MAX_CONTACTS_PER_IMPORT} contacts per import`);

export const importContactsInput = (parser: PhoneParser) => importOf(createContactInput(parser));

export const updateContactInput = (parser: PhoneParser) => z.strictObject(contactFields(parser)).partial();

/**
 * Create, import and update under both namings: the documented ones, and the same fields
 * camelCased, as GraphQL's inputs (derived from them) send them and the entity names them.
 */
export function contactWrites(parser: PhoneParser) {
  const camel = z.strictObject(camelKeys(contactFields(parser))).partial();
  const create = { snake_case: createContactInput(parser), camelCase: camel.required({ phoneNumber: true }) };
  return {
    create,
    import: { snake_case: importOf(create.snake_case), camelCase: importOf(create.camelCase) },
    update: { snake_case: updateContactInput(parser), camelCase: camel },
  };
}
export type ContactWrite = z.output<ReturnType<typeof contactWrites>['update']['camelCase']>;

/** A page of contacts, newest first, optionally filtered; every filter given must match. */
export const pageContactsInput = page().extend({
  status: requiredText(50).optional().describe('Only contacts of this status (active, inactive).'),
  campaign_id: uuid().optional().describe('Only contacts added to this campaign.'),
  tag_name: requiredText(200).optional().describe('Only contacts with exactly this tag.'),
  search: requiredText(100)
    .optional()
    .describe(
      'A name or a phone number. Words: every word is part of the first or last name, in any order and case (`ada lovel` finds Ada Lovelace). ' +
        'No letters: a number in any format finds that number (`(415) 555-2671` finds +14155552671); part of a number finds every number containing its digits.',
    ),
});
export type PageContactsInput = z.output<typeof pageContactsInput>;

/** Most data rows one CSV import takes (the header row not counted). */
export const MAX_CSV_ROWS = 100_000;
/** Largest CSV file one import takes, in bytes. */
export const MAX_CSV_BYTES = 64 * 1024 * 1024;

const csvHeader = () => requiredText(200).meta({ description: 'A header of the CSV file, as written in its first row.' });

/**
 * Each mapping key of a CSV import -> the contact field it feeds: the contact's own field
 * names, and the names the import first took for them (`first_name`, `tag`...).
 */
export const CSV_MAPPING_KEYS = {
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
} as const satisfies Record<string, keyof CreateContactInput>;
export type CsvMappingKey = keyof typeof CSV_MAPPING_KEYS;
export type CsvContactField = (typeof CSV_MAPPING_KEYS)[CsvMappingKey];

const VALID_MAPPING_KEYS = [...Object.keys(CSV_MAPPING_KEYS), 'metadata'].join(', ');

/**
 * Which CSV column feeds which contact field, by header name (docs/rest.md, "Importing
 * contacts from CSV"). A row's errors use the key given (`[14].first_name`). `metadata`
 * columns are copied into the contact's `metadata` under their header name. A mapping that
 * names no field lets the header map itself: a column named as a mapping key feeds its field.
 */
/** The mapping's fields: each key's header, and the metadata headers. */
export const contactCsvMappingFields = {
  ...(Object.fromEntries(Object.keys(CSV_MAPPING_KEYS).map((key) => [key, csvHeader().optional()])) as Record<CsvMappingKey, z.ZodOptional<ReturnType<typeof csvHeader>>>),
  metadata: z
    .array(csvHeader().refine((name) => name.trim() !== '__proto__', 'Not allowed as a metadata key (it would set an object prototype)'))
    .max(100, 'At most 100 metadata columns')
    .optional(),
};

export const contactCsvMapping = z
  .looseObject(contactCsvMappingFields)
  .superRefine((mapping, ctx) => {
    for (const key of Object.keys(mapping)) {
      if (key !== 'metadata' && !(key in CSV_MAPPING_KEYS)) ctx.addIssue({ code: 'custom', path: [key], message: `Unknown mapping key; valid keys: ${VALID_MAPPING_KEYS}` });
    }
  })
  .meta({ id: 'ContactCsvMapping', description: 'Header names of the CSV columns feeding each contact field; none: the header maps itself.' });
export type ContactCsvMapping = z.output<typeof contactCsvMapping>;

/** What an import does with a row whose number a contact of the company already has (or an earlier row had). */
export const ON_DUPLICATE = ['skip', 'update'] as const;

/** What a CSV import is told besides the file. */
export const importContactsCsvInput = z.strictObject({
  mapping: contactCsvMapping.optional(),
  on_duplicate: z.enum(ON_DUPLICATE, { error: rule(`Must be one of ${ON_DUPLICATE.join(', ')}`) }).default('skip'),
  campaign_id: uuid().nullish(),
  dry_run: z.boolean({ error: rule('Must be true or false') }).nullish(),
});
