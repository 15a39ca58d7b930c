import { z } from 'zod';
import type { Contact } from '../../entities';
import { LAST_CALL_STATUSES } from '../../entities/contact.entity';
import { defineContract, described as d, field, type ViewOf, viewOf } from '../shared/contract';
import { jsonObject, phone, requiredText, text, uuid } from '../shared/common.input';
import type { PhoneParser } from '../shared/phone';

/**
 * A person campaigns call, as services return it and every surface shows it: REST
 * (interface 2.3, field for field), /openapi.json and the GraphQL `Contact` type.
 * `lastCall*` mirror the outcome of the latest call and are null until the first.
 */
export const contactContract = defineContract({
  name: 'Contact',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    companyId: d(field.id(), 'Id of the company.'),
    firstname: d(z.string(), 'First name.'),
    lastname: d(z.string(), 'Last name.'),
    phoneNumber: d(field.phone(), 'E.164.'),
    numberCountryCode: d(z.string(), 'Country calling code, digits only (1 for +1).'),
    metadata: d(field.json(), 'Free-form data (agent and flow variables may read it).'),
    lastCallStatus: d(z.enum(LAST_CALL_STATUSES).nullable(), 'Outcome of the latest call; null before the first.'),
    lastCallAt: d(z.date().nullable(), 'When the latest call was made; null before the first.'),
    lastCallDuration: d(z.int().nullable(), 'Seconds the latest call was answered; null before the first.'),
    lastCallFeedback: d(z.string().nullable(), 'Feedback on the latest call; null when none.'),
    sourceName: d(z.string(), 'Source list, free text (campaigns select contacts by it).'),
    tagName: d(z.string(), 'Tag, free text (campaigns select contacts by it).'),
    categoryName: d(z.string(), 'Category, free text (campaigns select contacts by it).'),
    notes: d(z.string(), 'Free-form notes.'),
    campaignId: d(field.id().nullable(), 'Campaign the contact was added to; null when none.'),
    status: d(z.string(), 'Active contacts are called; inactive ones are not.'),
    createdAt: d(z.date(), 'When the record was created.'),
    updatedAt: d(z.date(), 'When the record last changed.'),
    deletedAt: d(z.date().nullable(), 'When the record was deleted; null while it exists.'),
  }),
  // Interface 2.3 shows no deletion time, and orders metadata and the timestamps its own way.
  rest: { omit: ['deletedAt'], after: { metadata: 'phoneNumber', createdAt: 'notes', updatedAt: 'createdAt' } },
  graphql: { omit: ['companyId'] },
});

export type ContactView = ViewOf<typeof contactContract>;

/** The view of a stored contact. */
export const toContactView = (contact: Contact): ContactView => viewOf(contactContract, contact);

/**
 * Fields contact create and update accept, in the documented snake_case: REST validates its
 * body with them as sent, GraphQL's inputs are derived from them (camelCase, the number
 * first), and both name the same fields in validation errors. Numbers are read with
 * `parser`, in its default region.
 */
export const contactFields = (parser: PhoneParser) => ({
  firstname: d(text(200), 'First name.'),
  lastname: d(text(200), 'Last name.'),
  phone_number: d(phone(parser), 'Any format; stored in E.164.'),
  metadata: d(jsonObject(), 'Free-form data.'),
  source_name: d(text(200), 'Source list, free text (campaigns select contacts by it).'),
  tag_name: d(text(200), 'Tag, free text (campaigns select contacts by it).'),
  category_name: d(text(200), 'Category, free text (campaigns select contacts by it).'),
  notes: d(text(10_000), 'Free-form notes.'),
  campaign_id: d(uuid().nullable(), 'Adds the contact to this campaign; null removes it.'),
  status: d(requiredText(50), 'Active or inactive.'),
});

/** How GraphQL's contact inputs order the write fields: the number first. */
export const contactInputOverride = { after: { phone_number: null } };
