import { z } from 'zod';
import { CALL_STATUSES } from '../../entities/call.entity';
import type { PhoneParser } from '../shared/phone';
import { makeCallFields } from './call.contract';
import { camelKeys } from '../shared/naming';
import { described as d } from '../shared/contract';
import { page, phone, rule, timestamp, uuid } from '../shared/common.input';

/** make-call (interface 4.1) as REST documents it. Unknown fields are ignored, as legacy clients send extras. */
export const makeCallInput = (parser: PhoneParser) => z.object(makeCallFields(parser));

/** make-call as the service validates it: the same fields camelCased, as GraphQL's input (derived from them) sends them and REST's body is renamed at its edge. */
export const makeCallWrite = (parser: PhoneParser) => z.object(camelKeys(makeCallFields(parser)));
export type MakeCallInput = z.input<ReturnType<typeof makeCallWrite>>;

/** simulate-inbound: a call from `from` to `to`, a number of the caller's company (docs/calls.md). */
export const simulateInboundInput = (parser: PhoneParser) =>
  z.strictObject({
    to: phone(parser).describe('A number of your company; its agent (or its active inbound campaign) answers.'),
    from: phone(parser).describe('The caller; matched against your contacts.'),
  });

export type SimulateInboundInput = z.input<ReturnType<typeof simulateInboundInput>>;

/** The filters of the calls list, as REST's query string documents them (GraphQL's `calls` arguments derive from them). */
export const callFilters = {
  campaign_id: d(uuid().optional(), 'Only calls of this campaign.'),
  contact_id: d(uuid().optional(), 'Only calls to or from this contact of your company.'),
  workspace: d(z.string().min(1).max(100).optional(), 'Only calls of this workspace.'),
  status: d(z.enum(CALL_STATUSES, { error: rule(`Must be one of ${CALL_STATUSES.join(', ')}`) }).optional(), 'Only calls in this status.'),
  created_after: timestamp().optional().describe('Only calls created at or after this instant (ISO 8601 with offset).'),
  created_before: timestamp().optional().describe('Only calls created before this instant (ISO 8601 with offset).'),
};

/** REST's query string of the calls list. */
export const listCallsQuery = page().extend(callFilters);

/** The calls list as the service validates it (the filters camelCased). */
export const listCallsInput = page().extend(camelKeys(callFilters));
export type ListCallsInput = z.input<typeof listCallsInput>;
