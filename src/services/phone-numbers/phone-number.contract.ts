import { z } from 'zod';
import type { PhoneNumber } from '../../entities';
import { defineContract, described as d, field, type ViewOf, viewOf } from '../shared/contract';
import { phone, text, uuid } from '../shared/common.input';
import type { PhoneParser } from '../shared/phone';

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

const label = () => d(text(200).optional(), 'A name for the number, free text.');

/**
 * Fields adding a number accepts, in the documented snake_case (REST validates its body with
 * them, GraphQL's input is derived from them); numbers are read with `parser`.
 */
export const phoneNumberCreateFields = (parser: PhoneParser) => ({
  phone_number: d(phone(parser), 'Any format; stored in E.164.'),
  label: label(),
});

/**
 * The number itself is fixed once added; its label and the agent answering it change. Partial:
 * a field left out stays; `inbound_agent_id` null stops the number answering (docs/calls.md).
 */
export const phoneNumberUpdateFields = {
  label: label(),
  inbound_agent_id: d(
    uuid().nullable().optional().describe('The agent of your company that answers calls to this number; null: none (calls are rejected).'),
    'The agent of your company that answers calls to this number; null: none. Left out: unchanged.',
  ),
};
