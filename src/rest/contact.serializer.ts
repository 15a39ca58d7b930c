import { z } from 'zod';
import { contactContract } from '../services/contacts/contact.contract';
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
    imported: z.int().meta({ description: 'Contacts written; in a dry run, the contacts the file holds.' }),
    dry_run: z.boolean().meta({ description: 'True when nothing was written.' }),
  })
  .meta({ id: 'ContactCsvImport' });

export const serializeCsvImport = ({ imported, dryRun }: CsvImportResult): z.output<typeof csvImportShape> => ({ imported, dry_run: dryRun });
