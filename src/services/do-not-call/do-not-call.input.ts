import { z } from 'zod';
import type { PhoneParser } from '../shared/phone';
import { doNotCallAddFields } from './do-not-call.contract';
import { page, phone } from '../shared/common.input';

/** Numbers to list, in any accepted format. */
export const addDoNotCallInput = (parser: PhoneParser) => z.strictObject(doNotCallAddFields(parser));

/** The number to take off the list, in any accepted format. */
export const removeDoNotCallInput = (parser: PhoneParser) => z.object({ number: phone(parser) });

export const listDoNotCallInput = page();
