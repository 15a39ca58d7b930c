import { z } from 'zod';
import { intBetween, isoDate, jsonObject, page, requiredText, rule, text, timestamp, uuid, workspace } from './common';

export const RETRY_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;

const timeOfDay = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'Must be a time of day HH:MM:SS');

const timeZone = () =>
  z.string().refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'Must be an IANA time zone such as America/New_York');

/** Documented as arrays of arrays of strings; flat arrays are accepted too. Stored flat. */
const nestedStrings = () =>
  z.array(z.union([text(200), z.array(text(200))])).max(1000).transform((items) => items.flat());

/** Fields accepted by campaign update (interface 4.2) and create. */
const campaignFields = {
  name: requiredText(200),
  notes: text(10_000),
  company_id: uuid(),
  owner_user_id: uuid().nullable(),
  ai_agent_id: uuid().nullable(),
  inbound_phone_number_id: uuid().nullable(),
  outbound_phone_number_id: uuid().nullable(),
  webhook_id: uuid().nullable(),
  status: requiredText(50),
  campaign_type: requiredText(50),
  contacts_list_source: z.array(text(200)).max(1000),
  contacts_list_tags: nestedStrings(),
  contacts_list_categories: nestedStrings(),
  contacts_list_source_metadata: jsonObject(),
  agent_variables_contact_metadata_mapping: jsonObject(),
  call_progress: intBetween(0, 100),
  call_time_of_day_from: timeOfDay(),
  call_time_of_day_to: timeOfDay(),
  number_of_call_attempts: z.array(intBetween(1, 100)).max(20),
  retry_delay: z.array(intBetween(0, 1_000_000)).max(20),
  retry_delay_unit: z.array(z.enum(RETRY_UNITS, { error: rule(`Must be one of ${RETRY_UNITS.join(', ')}`) })).max(20),
  days_of_week: z
    .array(intBetween(1, 7))
    .max(7)
    .refine((d) => new Set(d).size === d.length, 'Days must not repeat'),
  time_zone: timeZone(),
  allow_non_local_calls: z.boolean(),
  created_at: timestamp(),
  updated_at: timestamp(),
  deleted_at: timestamp().nullable(),
  started_at: isoDate().nullable(),
  ended_at: isoDate().nullable(),
  webhook_mapping_variables: jsonObject(),
  webhook_mapping_variables_sources: jsonObject(),
  max_concurrent_calls: intBetween(1, 1000),
};

/** Documented update: every field optional; unknown fields are ignored (legacy clients). */
export const updateCampaignInput = z.object(campaignFields).partial();
export type UpdateCampaignInput = z.output<typeof updateCampaignInput>;

/** Management create: the same fields plus `workspace`; `name` required; unknown fields refused. */
export const createCampaignInput = z
  .strictObject(campaignFields)
  .partial()
  .required({ name: true })
  .extend({ workspace: workspace() });

export const byWorkspaceInput = z.object({
  workspace: z.string().min(1, 'Workspace must not be empty').max(100, 'Workspace must be at most 100 characters'),
});

/** A page of campaigns, optionally of one workspace only. */
export const pageCampaignsInput = page().extend({ workspace: byWorkspaceInput.shape.workspace.optional() });
