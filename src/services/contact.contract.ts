import { z } from 'zod';
import type { Contact } from '../entities';
import { LAST_CALL_STATUSES } from '../entities/contact.entity';
import { defineContract, described as d, field, type ViewOf, viewOf } from './contract';

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
