import { z } from 'zod';
import type { PhoneNumber } from '../entities';
import { defineContract, described as d, field, type ViewOf, viewOf } from './contract';

// Also in /openapi.json (zod's global registry), where the legacy shape documents this field alone.
const answering = 'The agent answering calls to this number; null: calls are rejected.';

/**
 * A number the company owns and may call from, as services return it and every surface
 * shows it: REST (management extension), /openapi.json and the GraphQL `PhoneNumber` type.
 */
export const phoneNumberContract = defineContract({
  name: 'PhoneNumber',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    companyId: d(field.id(), 'Id of the company.'),
    phoneNumber: d(field.phone(), 'E.164.'),
    countryCode: d(z.string(), 'Country calling code, digits only (1 for +1).'),
    label: d(z.string(), 'A name for the number, free text.'),
    inboundAgentId: d(field.id().nullable().describe(answering), answering),
    createdAt: d(z.date(), 'When the record was created.'),
    updatedAt: d(z.date(), 'When the record last changed.'),
  }),
  graphql: { omit: ['companyId'] },
});

export type PhoneNumberView = ViewOf<typeof phoneNumberContract>;

/** The view of a stored number. */
export const toPhoneNumberView = (number: PhoneNumber): PhoneNumberView => viewOf(phoneNumberContract, number);
