import { z } from 'zod';
import type { DoNotCallNumber } from '../../entities';
import { declareFields, defineContract, field, readOnly, readWrite, type ViewOf, viewOf, writeOnly } from '../shared/contract';
import { phone, text } from '../shared/common.input';
import type { PhoneParser } from '../shared/phone';

const MAX_DO_NOT_CALL_PER_REQUEST = 10_000;

/**
 * A number on the company's do-not-call list (make-call refuses it, campaigns skip it), each
 * field declared once: how services return it and every surface shows it (REST,
 * /openapi.json, the GraphQL `DoNotCallNumber` type), and what adding numbers accepts:
 * numbers in any accepted format, each bad one named by index (`numbers[3]`).
 */
const doNotCall = declareFields({
  id: readOnly('Unique id (UUID).', field.id()),
  phoneNumber: readOnly('E.164.', z.string()),
  numbers: writeOnly('1 to 10,000 numbers, any format; stored in E.164.', (parser: PhoneParser) =>
    z.array(phone(parser)).min(1, 'Must hold at least one number').max(MAX_DO_NOT_CALL_PER_REQUEST, `At most ${MAX_DO_NOT_CALL_PER_REQUEST} numbers per request`),
  ),
  reason: readWrite('Why the number is listed, as given when it was added.', z.string().nullable(), text(1000).nullish(), { writes: 'Why the numbers are listed, free text.' }),
  createdAt: readOnly('When the record was created.', z.date()),
});

export const doNotCallContract = defineContract({ name: 'DoNotCallNumber', view: doNotCall.view });

export type DoNotCallView = ViewOf<typeof doNotCallContract>;

/** The view of a listed number. */
export const toDoNotCallView = (entry: DoNotCallNumber): DoNotCallView => viewOf(doNotCallContract, entry);

/** What adding numbers to the list accepts (REST validates its body with it, GraphQL's input is derived from it); numbers are read with `parser`. */
export const doNotCallAddFields = (parser: PhoneParser) => doNotCall.write(parser);
