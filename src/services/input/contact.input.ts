import { z } from 'zod';
import type { PhoneParser } from '../phone';
import { jsonObject, page, phone, requiredText, text, uuid } from './common';

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
  /** Part of a first name, last name or phone number (any case). */
  search: requiredText(100).optional(),
});
export type PageContactsInput = z.output<typeof pageContactsInput>;
