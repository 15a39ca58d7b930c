import { z } from 'zod';
import type { Contact } from '../entities';
import type { CsvImportResult } from '../services/contact.service';
import { LAST_CALL_STATUSES } from '../entities/contact.entity';
import { iso, refId, shape } from './serialize';

/** Contact, interface 2.3, field for field; `last_call_*` are null until the first call. */
export const contactShape = z
  .strictObject({
    id: shape.id(),
    company_id: shape.id(),
    firstname: z.string(),
    lastname: z.string(),
    phone_number: shape.phone(),
    metadata: shape.json(),
    number_country_code: z.string(),
    last_call_status: z.enum(LAST_CALL_STATUSES).nullable(),
    last_call_at: shape.timestamp().nullable(),
    last_call_duration: z.int().nullable(),
    last_call_feedback: z.string().nullable(),
    source_name: z.string(),
    tag_name: z.string(),
    category_name: z.string(),
    notes: z.string(),
    created_at: shape.timestamp(),
    updated_at: shape.timestamp(),
    campaign_id: shape.id().nullable(),
    status: z.string(),
  })
  .meta({ id: 'Contact' });

export function serializeContact(c: Contact): z.output<typeof contactShape> {
  return {
    id: c.id,
    company_id: c.company.id,
    firstname: c.firstname,
    lastname: c.lastname,
    phone_number: c.phoneNumber,
    metadata: c.metadata,
    number_country_code: c.numberCountryCode,
    last_call_status: c.lastCallStatus,
    last_call_at: iso(c.lastCallAt),
    last_call_duration: c.lastCallDuration,
    last_call_feedback: c.lastCallFeedback,
    source_name: c.sourceName,
    tag_name: c.tagName,
    category_name: c.categoryName,
    notes: c.notes,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    campaign_id: refId(c.campaign),
    status: c.status,
  };
}

/** The answer to a CSV import. */
export const csvImportShape = z
  .strictObject({
    imported: z.int().meta({ description: 'Contacts written; in a dry run, the contacts the file holds.' }),
    dry_run: z.boolean().meta({ description: 'True when nothing was written.' }),
  })
  .meta({ id: 'ContactCsvImport' });

export const serializeCsvImport = ({ imported, dryRun }: CsvImportResult): z.output<typeof csvImportShape> => ({ imported, dry_run: dryRun });
