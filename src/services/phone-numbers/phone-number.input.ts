import { z } from 'zod';
import { camelKeys } from '../shared/naming';
import { phoneNumberCreateFields, phoneNumberUpdateFields } from './phone-number.contract';
import type { PhoneParser } from '../shared/phone';

export const createPhoneNumberInput = (parser: PhoneParser) => z.strictObject(phoneNumberCreateFields(parser));

export const updatePhoneNumberInput = z.strictObject(phoneNumberUpdateFields);

/**
 * Create and update under both namings: the documented ones, and the same fields camelCased,
 * as GraphQL's inputs (derived from them) send them.
 */
export const createPhoneNumberWrite = (parser: PhoneParser) => ({
  snake_case: createPhoneNumberInput(parser),
  camelCase: z.strictObject(camelKeys(phoneNumberCreateFields(parser))),
});
export const updatePhoneNumberWrite = { snake_case: updatePhoneNumberInput, camelCase: z.strictObject(camelKeys(phoneNumberUpdateFields)) };
