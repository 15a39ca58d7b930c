import { z } from 'zod';
import type { Contact } from '../../entities';
import { LAST_CALL_STATUSES } from '../../entities/contact.entity';
import { declareFields, defineContract, field, readOnly, readWrite, type ViewOf, viewOf } from '../shared/contract';
import { jsonObject, phone, requiredText, text, uuid } from '../shared/common.input';
import type { PhoneParser } from '../shared/phone';

/**
 * A person campaigns call, each field declared once: how services return it and every
 * surface shows it (REST, interface 2.3, field for field; /openapi.json; the GraphQL
 * `Contact` type), and what create and update accept. `lastCall*` mirror the outcome of the
 * latest call and are null until the first.
 */
const contact = declareFields({
  id: readOnly('Unique id (UUID).', field.id()),
  companyId: readOnly('Id of the company.', field.id()),
  firstname: readWrite('First name.', z.string(), text(200)),
  lastname: readWrite('Last name.', z.string(), text(200)),
  phoneNumber: readWrite('E.164.', field.phone(), phone, { writes: 'Any format; stored in E.164.' }),
  numberCountryCode: readOnly('Country calling code, digits only (1 for +1).', z.string()),
  metadata: readWrite('Free-form data (agent and flow variables may read it).', field.json(), jsonObject()),
  lastCallStatus: readOnly('Outcome of the latest call; null before the first.', z.enum(LAST_CALL_STATUSES).nullable()),
  lastCallAt: readOnly('When the latest call was made; null before the first.', z.date().nullable()),
  lastCallDuration: readOnly('Seconds the latest call was answered; null before the first.', z.int().nullable()),
  lastCallFeedback: readOnly('Feedback on the latest call; null when none.', z.string().nullable()),
  sourceName: readWrite('Source list, free text (campaigns select contacts by it).', z.string(), text(200)),
  tagName: readWrite('Tag, free text (campaigns select contacts by it).', z.string(), text(200)),
  categoryName: readWrite('Category, free text (campaigns select contacts by it).', z.string(), text(200)),
  notes: readWrite('Free-form notes.', z.string(), text(10_000)),
  campaignId: readWrite('Campaign the contact was added to; null when none.', field.id().nullable(), uuid().nullable(), { writes: 'Adds the contact to this campaign; null removes it.' }),
  status: readWrite('Active contacts are called; inactive ones are not.', z.string(), requiredText(50)),
  createdAt: readOnly('When the record was created.', z.date()),
  updatedAt: readOnly('When the record last changed.', z.date()),
  deletedAt: readOnly('When the record was deleted; null while it exists.', z.date().nullable()),
});

export const contactContract = defineContract({
  name: 'Contact',
  view: contact.view,
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
export const contactFields = (parser: PhoneParser) => contact.write(parser);

/** How GraphQL's contact inputs order the write fields: the number first. */
export const contactInputOverride = { after: { phone_number: null } };
