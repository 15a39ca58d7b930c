import { z } from 'zod';
import { contactContract } from '../services/contacts/contact.contract';
import { snakeName } from '../services/shared/naming';
import type { CsvImportResult } from '../services/contacts/contact.service';
import { restShape } from './contract-shape';

/** Contact, interface 2.3, derived from its contract. */
const contact = restShape(contactContract);
export const contactShape = contact.schema;
export const serializeContact = contact.serialize;
/** A stored contact view's REST JSON (the text `serializeContact` gives, written in one pass). */
export const contactJson = contact.json;

/** A page of contacts, newest first (the shape of a page of calls). */
export const contactPageShape = z.strictObject({ items: z.array(contactShape), next_cursor: z.string().nullable() });

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
  })
  .meta({ id: 'ContactCsvImport' });

/** The answer to a CSV import; its mapping keys (the service's, camelCase) as REST documents them (`first_name`). */
export const serializeCsvImport = ({ rows, imported, updated, duplicates, columns, dryRun }: CsvImportResult): z.output<typeof csvImportShape> => ({
  rows,
  imported,
  updated,
  duplicates,
  columns: { mapped: Object.fromEntries(Object.entries(columns.mapped).map(([key, header]) => [snakeName(key), header])), metadata: columns.metadata },
  dry_run: dryRun,
});
