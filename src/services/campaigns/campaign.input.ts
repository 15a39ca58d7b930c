import { z } from 'zod';
import { page, text } from '../shared/common.input';
import { described } from '../shared/contract';

export const RETRY_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;

export const timeOfDay = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'Must be a time of day HH:MM:SS');

export const timeZone = () =>
  z.string().refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'Must be an IANA time zone such as America/New_York');

/** Documented as arrays of arrays of strings; flat arrays are accepted too. Stored flat. */
export const nestedStrings = () =>
  z
    .array(z.union([text(200), z.array(text(200))]))
    .max(1000)
    .transform((items) => items.flat());

export const byWorkspaceInput = z.object({
  workspace: z.string().min(1, 'Workspace must not be empty').max(100, 'Workspace must be at most 100 characters'),
});

/** The filter of the campaigns list (GraphQL's `campaigns` arguments derive from it). */
export const campaignFilters = { workspace: described(byWorkspaceInput.shape.workspace.optional(), 'Only campaigns of this workspace; all when left out.') };

/** A page of campaigns, optionally of one workspace only. */
export const pageCampaignsInput = page().extend(campaignFilters);

/** How many contacts the audience preview shows as a sample: 0 to 100, 10 unless said. */
export const audienceInput = z.object({
  limit: z.coerce.number().int('Must be an integer').min(0, 'Must be between 0 and 100').max(100, 'Must be between 0 and 100').default(10),
});
export type AudienceInput = z.input<typeof audienceInput>;
