import { z } from 'zod';
import type { PhoneParser } from '../shared/phone';
import { doNotCallAddFields } from './do-not-call.contract';
import { page, phone } from '../shared/common.input';

/** Numbers to list, in any accepted format (its fields are one word each: REST's names are the service's). */
export const addDoNotCallInput = (parser: PhoneParser) => z.strictObject(doNotCallAddFields(parser));
export type DoNotCallAddInput = z.input<ReturnType<typeof addDoNotCallInput>>;

/** The number to take off the list, in any accepted format. */
export const removeDoNotCallInput = (parser: PhoneParser) => z.object({ number: phone(parser) });

export const listDoNotCallInput = page();
export type DoNotCallListInput = z.input<typeof listDoNotCallInput>;
