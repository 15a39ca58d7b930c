import { z } from 'zod';
import type { PhoneNumber } from '../../entities';
import { declareFields, defineContract, field, readOnly, readWrite, type ViewOf, viewOf } from '../shared/contract';
import { phone, text, uuid } from '../shared/common.input';
import type { PhoneParser } from '../shared/phone';

// Also in /openapi.json (zod's global registry), where the legacy shape documents this field alone.
const answering = 'The agent answering calls to this number; null: calls are rejected.';

/**
 * A number the company owns and may call from, each field declared once: how services
 * return it and every surface shows it (REST, management extension; /openapi.json; the
 * GraphQL `PhoneNumber` type), and what adding it and updating it accept.
 */
const phoneNumber = declareFields({
  id: readOnly('Unique id (UUID).', field.id()),
  companyId: readOnly('Id of the company.', field.id()),
  phoneNumber: readWrite('E.164.', field.phone(), phone, { writes: 'Any format; stored in E.164.' }),
  countryCode: readOnly('Country calling code, digits only (1 for +1).', z.string()),
  label: readWrite('A name for the number, free text.', z.string(), text(200).optional()),
  inboundAgentId: readWrite(
    answering,
    field.id().nullable().describe(answering),
    uuid().nullable().optional().describe('The agent of your company that answers calls to this number; null: none (calls are rejected).'),
    {
      writes: 'The agent of your company that answers calls to this number; null: none. Left out: unchanged.',
    },
  ),
  createdAt: readOnly('When the record was created.', z.date()),
  updatedAt: readOnly('When the record last changed.', z.date()),
});

export const phoneNumberContract = defineContract({
  name: 'PhoneNumber',
  view: phoneNumber.view,
  graphql: { omit: ['companyId'] },
});

export type PhoneNumberView = ViewOf<typeof phoneNumberContract>;

/** The view of a stored number. */
export const toPhoneNumberView = (number: PhoneNumber): PhoneNumberView => viewOf(phoneNumberContract, number);

/**
 * Fields adding a number accepts, in the documented snake_case (REST validates its body with
 * them, GraphQL's input is derived from them); numbers are read with `parser`.
 */
export const phoneNumberCreateFields = (parser: PhoneParser) => phoneNumber.write(parser, ['phoneNumber', 'label']);

/**
 * The number itself is fixed once added; its label and the agent answering it change. Partial:
 * a field left out stays; `inbound_agent_id` null stops the number answering (docs/calls.md).
 */
export const phoneNumberUpdateFields = phoneNumber.write(undefined, ['label', 'inboundAgentId']);
