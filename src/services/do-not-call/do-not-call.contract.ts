import { z } from 'zod';
import type { DoNotCallNumber } from '../../entities';
import { defineContract, described as d, field, type ViewOf, viewOf } from '../shared/contract';
import { phone, text } from '../shared/common.input';
import type { PhoneParser } from '../shared/phone';

/**
 * A number on the company's do-not-call list (make-call refuses it, campaigns skip it), as
 * services return it and every surface shows it: REST, /openapi.json and the GraphQL
 * `DoNotCallNumber` type.
 */
export const doNotCallContract = defineContract({
  name: 'DoNotCallNumber',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    phoneNumber: d(z.string(), 'E.164.'),
    reason: d(z.string().nullable(), 'Why the number is listed, as given when it was added.'),
    createdAt: d(z.date(), 'When the record was created.'),
  }),
});

export type DoNotCallView = ViewOf<typeof doNotCallContract>;

/** The view of a listed number. */
export const toDoNotCallView = (entry: DoNotCallNumber): DoNotCallView => viewOf(doNotCallContract, entry);

const MAX_DO_NOT_CALL_PER_REQUEST = 10_000;

/**
 * What adding numbers to the list accepts (REST validates its body with it, GraphQL's input is
 * derived from it): numbers in any accepted format, read with `parser`; each bad one is
 * named by index (`numbers[3]`).
 */
export const doNotCallAddFields = (parser: PhoneParser) => ({
  numbers: d(
    z.array(phone(parser)).min(1, 'Must hold at least one number').max(MAX_DO_NOT_CALL_PER_REQUEST, `At most ${MAX_DO_NOT_CALL_PER_REQUEST} numbers per request`),
    '1 to 10,000 numbers, any format; stored in E.164.',
  ),
  reason: d(text(1000).nullish(), 'Why the numbers are listed, free text.'),
});
