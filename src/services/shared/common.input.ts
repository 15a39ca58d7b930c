import { z } from 'zod';
import type { ParsedPhone, PhoneParser } from './phone';

/** A message for a rule, keeping "Required" for a missing value. */
export const rule = (message: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'Required' : message);

/** The id /openapi.json shows in examples (Swagger UI would otherwise make one up). */
export const EXAMPLE_ID = '0b8f5a3e-6c1d-4f2a-9e7b-3d4c5a6b7c8d';

/**
 * Input rules used by several operations; each message names the rule broken.
 *
 * A UUID in any case, normalised to lower case (as PostgreSQL writes them): every id that
 * comes in is parsed here once, so ids compared in code (a caller's company, a filter, a
 * cache key) compare equal whatever case the client wrote them in.
 */
export const uuid = () =>
  z
    .guid({ error: rule('Must be a UUID') })
    .toLowerCase()
    .meta({ examples: [EXAMPLE_ID] });

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

/**
 * The workspace a listing reads (`?workspace=`): as `workspace()`, and empty means `default`
 * too, since an empty value is all a query string (or a form) can say for "none".
 */
export const listedWorkspace = () =>
  z
    .string()
    .max(100, 'Workspace must be at most 100 characters')
    .regex(/^$|\S/, 'Workspace must not be empty')
    .meta({ examples: ['default'] })
    .nullish()
    .transform((v) => v || 'default');

export const text = (max: number) => z.string().max(max, `Must be at most ${max} characters`);

/** An absolute https URL of at most `max` characters. */
export const httpsUrl = (max: number) =>
  text(max).refine((value) => {
    try {
      return !/\s/.test(value) && new URL(value).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Must be an https URL');

export const requiredText = (max: number) => text(max).refine((s) => s.trim() !== '', 'Must not be empty');

export const jsonObject = () => z.record(z.string(), z.unknown());

/** An integer between `min` and `max`, both included. */
export const intBetween = (min: number, max: number) => z.number().int('Must be an integer').min(min, `Must be between ${min} and ${max}`).max(max, `Must be between ${min} and ${max}`);

/** A phone number in any accepted format, parsed to E.164 with its country calling code. */
export const phone = (parser: PhoneParser) =>
  z
    .string()
    .meta({ examples: ['+14155552671'] })
    .transform((value, ctx): ParsedPhone => {
      const parsed = parser.parse(value);
      if (parsed) return parsed;
      ctx.addIssue({ code: 'custom', message: 'Invalid phone number format' });
      return z.NEVER;
    });

/**
 * Instants the service stores and writes back: years 0001 to 9999, in UTC. PostgreSQL has
 * no year 0 (ISO 8601's 0000 is 1 BC; a `date` of 0000-01-01 is refused outright) and no
 * timestamp past 294276, and the REST format writes four-digit years (JavaScript writes
 * `+010000-...` past 9999), so anything outside would fail to store or read back wrongly.
 */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const DATE_RANGE = 'between 0001-01-01 and 9999-12-31';

/** True when `at` is a valid date the database stores and the API writes back unchanged. */
export const storableInstant = (at: Date): boolean => at.getTime() >= FIRST_INSTANT && at.getTime() <= LAST_INSTANT;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date `YYYY-MM-DD` that exists (no February 30) and is storable. */
export const isoDate = () =>
  z
    .string()
    .regex(DATE, 'Must be a date YYYY-MM-DD')
    .superRefine((s, ctx) => {
      if (!DATE.test(s)) return; // the format's message says it
      const at = new Date(`${s}T00:00:00Z`);
      if (Number.isNaN(at.getTime()) || !at.toISOString().startsWith(s)) ctx.addIssue({ code: 'custom', message: 'Must be a real calendar date' });
      else if (!storableInstant(at)) ctx.addIssue({ code: 'custom', message: `Must be a date ${DATE_RANGE}` });
    });

/** An ISO 8601 timestamp with its offset, storable once read in UTC (a malformed one has the format's message only). */
export const timestamp = () =>
  z.iso.datetime({ offset: true, error: rule('Must be an ISO 8601 timestamp') }).refine((s) => {
    const at = new Date(s);
    return Number.isNaN(at.getTime()) || storableInstant(at);
  }, `Must be ${DATE_RANGE} in UTC`);

/** `limit` and `cursor` of the paginated list operations. */
export const page = () =>
  z.object({
    limit: z.coerce.number().int('Must be an integer').min(1, 'Must be between 1 and 200').max(200, 'Must be between 1 and 200').default(50),
    cursor: z.string().max(200).optional(),
  });
