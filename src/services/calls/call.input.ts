import { z } from 'zod';
import { CALL_STATUSES } from '../../entities/call.entity';
import type { PhoneParser } from '../shared/phone';
import { makeCallFields } from './call.contract';
import { camelKeys } from '../shared/naming';
import { page, phone, rule, timestamp, uuid } from '../shared/common.input';

/**
 * make-call (interface 4.1) under both namings: the documented one, and the same fields
 * camelCased, as GraphQL's input (derived from them) sends them. Unknown fields are
 * ignored, as legacy clients send extras.
 */
export const makeCallWrite = (parser: PhoneParser) => ({
  snake_case: z.object(makeCallFields(parser)),
  camelCase: z.object(camelKeys(makeCallFields(parser))),
});

/** simulate-inbound: a call from `from` to `to`, a number of the caller's company (docs/calls.md). */
export const simulateInboundInput = (parser: PhoneParser) =>
  z.strictObject({
    to: phone(parser).describe('A number of your company; its agent (or its active inbound campaign) answers.'),
    from: phone(parser).describe('The caller; matched against your contacts.'),
  });

export const listCallsInput = page().extend({
  campaign_id: uuid().optional(),
  workspace: z.string().min(1).max(100).optional(),
  status: z.enum(CALL_STATUSES, { error: rule(`Must be one of ${CALL_STATUSES.join(', ')}`) }).optional(),
  created_after: timestamp().optional().describe('Only calls created at or after this instant (ISO 8601 with offset).'),
  created_before: timestamp().optional().describe('Only calls created before this instant (ISO 8601 with offset).'),
});
export type ListCallsInput = z.output<typeof listCallsInput>;
