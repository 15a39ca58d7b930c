import { z } from 'zod';
import { contactContract } from '../services/contacts/contact.contract';
import { snakeName } from '../services/shared/naming';
import { CSV_PREVIEW_ROWS, CSV_ROW_ACTIONS, type CsvImportResult, type CsvPreview } from '../services/contacts/contact.service';
import { CSV_DELIMITERS, MAX_LISTED_ERRORS } from '../services/contacts/contact-csv';
import { restShape } from './contract-shape';

/** Contact, interface 2.3, derived from its contract. */
const contact = restShape(contactContract);
export const contactShape = contact.schema;
export const serializeContact = contact.serialize;
/** A stored contact view's REST JSON (the text `serializeContact` gives, written in one pass). */
export const contactJson = contact.json;

/** A page of contacts, newest first (the shape of a page of calls). */
export const contactPageShape = z.strictObject({ items: z.array(contactShape), next_cursor: z.string().nullable() });

const text = () => z.string().nullable();

/** A dry run's preview (docs/rest.md, "The answer, and the dry run"). */
const csvPreviewShape = z
  .strictObject({
    delimiter: z.enum(CSV_DELIMITERS).meta({ description: 'The delimiter detected.' }),
    encoding: z.literal('utf-8').meta({ description: 'The encoding the file was read in (a file that is not UTF-8 is refused).' }),
    header: z.array(z.string()).meta({ description: "The header row's names, trimmed." }),
    sample: z
      .array(
        z.strictObject({
          line: z.int().meta({ description: 'The line, as a spreadsheet numbers it (the header is line 1).' }),
          action: z.enum(CSV_ROW_ACTIONS).meta({ description: 'What the import does with the row: create a contact, update the one having its number, or nothing.' }),
          contact: z
            .strictObject({
              phone_number: z.string(),
              number_country_code: z.string(),
              firstname: text(),
              lastname: text(),
              tag_name: text(),
              category_name: text(),
              source_name: text(),
              notes: text(),
              metadata: z.record(z.string(), z.unknown()).nullable(),
              campaign_id: z.string().nullable(),
            })
            .meta({ description: 'The fields the row writes, as stored; null: left empty (a new contact) or as it is (an update).' }),
        }),
      )
      .meta({ description: `The first ${CSV_PREVIEW_ROWS} good rows.` }),
    invalid_rows: z.int().meta({ description: 'Data rows with at least one problem.' }),
    errors: z
      .array(
        z.strictObject({
          line: z.int().nullable().meta({ description: "The row's line; null for a problem of the mapping against the header." }),
          field: z.string().nullable().meta({ description: 'The mapping key (`first_name`), `metadata.<header>`, `mapping.<key>`, `mapping` or `file`; null: the whole row.' }),
          message: z.string(),
        }),
      )
      .meta({ description: `The first ${MAX_LISTED_ERRORS} problems, the mapping's first, then by line.` }),
    error_count: z.int().meta({ description: 'Problems in all.' }),
  })
  .meta({ id: 'ContactCsvPreview', description: 'What a dry run found (a dry run only).' });

/** A preview's field as REST names it: mapping keys and contact fields in snake_case, metadata headers as written. */
const restField = (field: string | null): string | null =>
  field
    ?.split('.')
    .map((part, i, parts) => (parts.slice(0, i).includes('metadata') ? part : snakeName(part)))
    .join('.') ?? null;

const serializePreview = ({ delimiter, encoding, header, sample, invalidRows, errors, errorCount }: CsvPreview): z.output<typeof csvPreviewShape> => ({
  delimiter,
  encoding,
  header,
  sample: sample.map(({ line, action, contact }) => ({
    line,
    action,
    contact: {
      phone_number: contact.phoneNumber,
      number_country_code: contact.numberCountryCode,
      firstname: contact.firstname,
      lastname: contact.lastname,
      tag_name: contact.tagName,
      category_name: contact.categoryName,
      source_name: contact.sourceName,
      notes: contact.notes,
      metadata: contact.metadata,
      campaign_id: contact.campaignId,
    },
  })),
  invalid_rows: invalidRows,
  errors: errors.map(({ line, field, message }) => ({ line, field: restField(field), message })),
  error_count: errorCount,
});

/** The answer to a CSV import. */
export const csvImportShape = z
  .strictObject({
    rows: z.int().meta({ description: 'Data rows read (blank lines aside).' }),
    imported: z.int().meta({ description: 'Contacts created; in a dry run, those that would be.' }),
    updated: z.int().meta({ description: 'Contacts updated from a row with their number (`on_duplicate=update`), by number; in a dry run, those that would be.' }),
    duplicates: z.int().meta({ description: 'Rows whose number a contact of the company already had, or an earlier row of the file.' }),
    columns: z
      .strictObject({
        mapped: z.record(z.string(), z.string()).meta({ description: 'Each mapping key used -> the header of its column.' }),
        metadata: z.array(z.string()).meta({ description: 'Headers of the columns copied into metadata.' }),
      })
      .meta({ description: 'The columns read.' }),
    dry_run: z.boolean().meta({ description: 'True when nothing was written.' }),
    preview: csvPreviewShape.optional(),
  })
  .meta({ id: 'ContactCsvImport' });

/** The answer to a CSV import; its mapping keys (the service's, camelCase) as REST documents them (`first_name`). */
export const serializeCsvImport = ({ rows, imported, updated, duplicates, columns, dryRun, preview }: CsvImportResult): z.output<typeof csvImportShape> => ({
  rows,
  imported,
  updated,
  duplicates,
  columns: { mapped: Object.fromEntries(Object.entries(columns.mapped).map(([key, header]) => [snakeName(key), header])), metadata: columns.metadata },
  dry_run: dryRun,
  ...(preview ? { preview: serializePreview(preview) } : {}),
});
