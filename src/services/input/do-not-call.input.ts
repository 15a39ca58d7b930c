import { z } from 'zod';
import type { PhoneParser } from '../phone';
import { page, phone, text } from './common';

export const MAX_DO_NOT_CALL_PER_REQUEST = 10_000;

/** Numbers to list, in any accepted format; each bad one is named by index (`numbers[3]`). */
export const addDoNotCallInput = (parser: PhoneParser) =>
  z.strictObject({
    numbers: z
      .array(phone(parser))
      .min(1, 'Must hold at least one number')
      .max(MAX_DO_NOT_CALL_PER_REQUEST, `At most ${MAX_DO_NOT_CALL_PER_REQUEST} numbers per request`),
    reason: text(1000).nullish(),
  });

/** The number to take off the list, in any accepted format. */
export const removeDoNotCallInput = (parser: PhoneParser) => z.object({ number: phone(parser) });

export const listDoNotCallInput = page();
