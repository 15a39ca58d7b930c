import { z } from 'zod';
import type { PhoneParser } from '../phone';
import { phone, text, uuid } from './common';

export const createPhoneNumberInput = (parser: PhoneParser) =>
  z.strictObject({
    phone_number: phone(parser),
    label: text(200).optional(),
  });

/**
 * The number itself is fixed once added; its label and the agent answering it change. Partial:
 * a field left out stays; `inbound_agent_id` null stops the number answering (docs/calls.md).
 */
export const updatePhoneNumberInput = z.strictObject({
  label: text(200).optional(),
  inbound_agent_id: uuid().nullable().optional().describe('The agent of your company that answers calls to this number; null: none (calls are rejected).'),
});
