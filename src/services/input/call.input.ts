import { z } from 'zod';
import { CALL_STATUSES } from '../../entities/call.entity';
import type { PhoneParser } from '../phone';
import { page, phone, rule, timestamp, uuid, workspace } from './common';

/**
 * The rules of interface 4.1 as regular expressions, so that /openapi.json states them too:
 * a name is one or more non-space characters, a value has at least one.
 */
const dynamicVariable = z.object({
  name: z
    .string()
    .regex(/^\S+$/, {
      error: (iss) => ((iss.input as string).trim() === '' ? 'Dynamic variable name must not be empty' : 'Dynamic variable name must not contain spaces'),
    })
    .meta({ examples: ['first_name'] }),
  value: z.string().regex(/\S/, 'Dynamic variable value must not be empty').meta({ examples: ['Ada'] }),
});

/** make-call (interface 4.1). Unknown fields are ignored, as legacy clients send extras. */
export const makeCallInput = (parser: PhoneParser) =>
  z.object({
    ai_agent_id: uuid(),
    call_from: phone(parser),
    call_to: phone(parser),
    dynamic_variables: z.array(dynamicVariable).max(100, 'At most 100 dynamic variables').nullish(),
    workspace: workspace(),
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
