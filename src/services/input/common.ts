import { z } from 'zod';
import type { ParsedPhone, PhoneParser } from '../phone';

/** A message for a rule, keeping "Required" for a missing value. */
export const rule = (message: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'Required' : message);

/** The id /openapi.json shows in examples (Swagger UI would otherwise make one up). */
export const EXAMPLE_ID = '0b8f5a3e-6c1d-4f2a-9e7b-3d4c5a6b7c8d';

/** Input rules used by several operations; each message names the rule broken. */
export const uuid = () => z.guid({ error: rule('Must be a UUID') }).meta({ examples: [EXAMPLE_ID] });

/** Workspace slug: optional, null means `default`; when given, 1 to 100 characters. */
export const workspace = () =>
  z
    .string()
    .min(1, { error: 'Workspace must not be empty', abort: true })
    .max(100, 'Workspace must be at most 100 characters')
    .regex(/\S/, 'Workspace must not be empty')
    .meta({ examples: ['default'] })
    .nullish()
    .transform((v) => v ?? 'default');

export const text = (max: number) => z.string().max(max, `Must be at most ${max} characters`);

export const requiredText = (max: number) => text(max).refine((s) => s.trim() !== '', 'Must not be empty');

export const jsonObject = () => z.record(z.string(), z.unknown());

/** An integer between `min` and `max`, both included. */
export const intBetween = (min: number, max: number) =>
  z
    .number()
    .int('Must be an integer')
    .min(min, `Must be between ${min} and ${max}`)
    .max(max, `Must be between ${min} and ${max}`);

/** A phone number in any accepted format, parsed to E.164 with its country calling code. */
export const phone = (parser: PhoneParser) =>
  z.string().meta({ examples: ['+14155552671'] }).transform((value, ctx): ParsedPhone => {
    const parsed = parser.parse(value);
    if (parsed) return parsed;
    ctx.addIssue({ code: 'custom', message: 'Invalid phone number format' });
    return z.NEVER;
  });

/** `limit` and `cursor` of the paginated list operations. */
export const page = () =>
  z.object({
    limit: z.coerce.number().int('Must be an integer').min(1, 'Must be between 1 and 200').max(200, 'Must be between 1 and 200').default(50),
    cursor: z.string().max(200).optional(),
  });
