import { z } from 'zod';
import { camelKeys } from '../shared/naming';
import { phoneNumberCreateFields, phoneNumberUpdateFields } from './phone-number.contract';
import type { PhoneParser } from '../shared/phone';

/** REST's documented bodies, in snake_case. */
export const createPhoneNumberInput = (parser: PhoneParser) => z.strictObject(phoneNumberCreateFields(parser));
export const updatePhoneNumberInput = z.strictObject(phoneNumberUpdateFields);

/**
 * Create and update as the service validates them: the same fields camelCased, as GraphQL's
 * inputs (derived from them) send them and REST's body is renamed at its edge.
 */
export const createPhoneNumberWrite = (parser: PhoneParser) => z.strictObject(camelKeys(phoneNumberCreateFields(parser)));
export const updatePhoneNumberWrite = z.strictObject(camelKeys(phoneNumberUpdateFields));

/** What `PhoneNumberService.create` and `update` take (and validate). */
export type PhoneNumberCreateInput = z.input<ReturnType<typeof createPhoneNumberWrite>>;
export type PhoneNumberUpdateInput = z.input<typeof updatePhoneNumberWrite>;
