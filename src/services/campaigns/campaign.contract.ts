import { z } from 'zod';
import type { Campaign } from '../../entities';
import { camelKeys } from '../shared/naming';
import { defineContract, described as d, field, type ViewOf, viewOf } from '../shared/contract';
import { versionWeight } from '../agents/agent-version.contract';
import { versionNumber, versionWeights } from '../agents/agent-version.input';
import { nestedStrings, RETRY_UNITS, timeOfDay, timeZone } from './campaign.input';
import { intBetween, isoDate, jsonObject, requiredText, rule, text, timestamp, uuid, workspace } from '../shared/common.input';

/**
 * The campaign as services return it and every surface shows it: REST (interface 2.2, then
 * the related ids that update accepts and the `max_concurrent_calls` extension),
 * /openapi.json and the GraphQL `Campaign` type.
 */
export const campaignContract = defineContract({
  name: 'Campaign',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    name: d(z.string(), 'Name of the campaign.'),
    notes: d(z.string(), 'Free-form notes.'),
    status: d(z.string(), 'Draft, active, paused, completed, or any status written through update.'),
    campaignType: d(z.string(), 'Kind of campaign, free text (e.g. outbound).'),
    callProgress: d(z.int(), 'Percent of the selected contacts settled.'),
    daysOfWeek: d(z.array(z.int()), '1 = Monday ... 7 = Sunday.'),
    timeZone: d(z.string(), 'IANA time zone of the calling window.'),
    workspaceId: d(z.string(), 'Workspace slug of the campaign.'),
    contactsListSource: d(z.array(z.string()), 'Select contacts whose sourceName is one of these; empty selects all.'),
    contactsListTags: d(z.array(z.string()), 'Select contacts whose tagName is one of these; empty selects all.'),
    contactsListCategories: d(z.array(z.string()), 'Select contacts whose categoryName is one of these; empty selects all.'),
    contactsListSourceMetadata: d(field.json(), 'Free-form data about the contact sources.'),
    agentVariablesContactMetadataMapping: d(field.json(), 'Agent variable name to a path into the contact (firstname, metadata.plan).'),
    callTimeOfDayFrom: d(z.iso.time({ precision: 0 }), 'HH:MM:SS in the campaign time zone.'),
    callTimeOfDayTo: d(z.iso.time({ precision: 0 }), 'HH:MM:SS in the campaign time zone.'),
    numberOfCallAttempts: d(z.array(z.int()), 'Attempts per retry tier.'),
    retryDelay: d(z.array(z.int()), 'Delay before a retry, per tier, in `retryDelayUnit`.'),
    retryDelayUnit: d(z.array(z.enum(RETRY_UNITS)), 'Unit of `retryDelay`, per tier.'),
    startedAt: d(z.iso.date().nullable(), 'First calling date (YYYY-MM-DD) in the campaign time zone.'),
    endedAt: d(z.iso.date().nullable(), 'Last calling date (YYYY-MM-DD) in the campaign time zone, included.'),
    webhookMappingVariables: d(field.json(), 'Flow variable name to a path into a source record, for the flow run after each call.'),
    webhookMappingVariablesSources: d(field.json(), 'Sources the mapping reads: call, contact, campaign, agent_post_call_outcomes.'),
    companyId: d(field.id(), 'Id of the company.'),
    ownerUserId: d(field.id().nullable(), 'Id of the user who owns the campaign.'),
    aiAgentId: d(field.id().nullable(), 'Id of the agent that makes the calls.'),
    aiAgentVersion: d(z.int().nullable(), 'The agent\'s published version every call runs; null: the latest published (docs/agents.md, "Versions").'),
    aiAgentVersions: d(z.array(versionWeight).nullable(), 'Versions the calls are split between by weight (an A/B test), instead of one; null: none.'),
    inboundPhoneNumberId: d(field.id().nullable(), 'Id of the number inbound calls arrive on.'),
    outboundPhoneNumberId: d(field.id().nullable(), 'Id of the number the calls are made from.'),
    webhookId: d(field.id().nullable(), 'Id of the flow triggered after each call.'),
    allowNonLocalCalls: d(z.boolean(), 'False skips contacts whose country code differs from the outbound number.'),
    maxConcurrentCalls: d(z.int(), 'Most calls of the campaign live at once, 1 to 1000.'),
    createdAt: d(z.date(), 'When the record was created.'),
    updatedAt: d(z.date(), 'When the record last changed.'),
    deletedAt: d(z.date().nullable(), 'Set when deleted; a deleted campaign still shows through the calls that name it.'),
  }),
  // Interface 2.2 orders the timestamps with the documented fields and names the workspace `workspace`.
  rest: { rename: { workspaceId: 'workspace' }, after: { createdAt: 'timeZone', updatedAt: 'createdAt', deletedAt: 'retryDelayUnit' } },
  graphql: { omit: ['companyId'] },
});

export type CampaignView = ViewOf<typeof campaignContract>;

/**
 * Fields campaign update (interface 4.2) and create accept, in the documented snake_case:
 * REST validates its body with them as sent, GraphQL's inputs are derived from them
 * (camelCase), and both name the same fields in validation errors.
 */
export const campaignFields = {
  name: d(requiredText(200), 'Name of the campaign.'),
  notes: d(text(10_000), 'Free-form notes.'),
  company_id: uuid(),
  owner_user_id: d(uuid().nullable(), 'Id of the user who owns the campaign.'),
  ai_agent_id: d(uuid().nullable(), 'Id of the AI agent.'),
  ai_agent_version: d(versionNumber().nullable(), 'A published version of the agent every call runs; null: the latest published, else the draft.'),
  ai_agent_versions: d(versionWeights().nullable(), 'Split the calls between published versions by weight (an A/B test) instead of one version; each call records which it ran.'),
  inbound_phone_number_id: d(uuid().nullable(), 'Id of the number inbound calls arrive on.'),
  outbound_phone_number_id: d(uuid().nullable(), 'Id of the number the calls are made from.'),
  webhook_id: d(uuid().nullable(), 'Id of the webhook flow.'),
  status: d(requiredText(50), 'Draft, active (starts dialing), paused, completed, or any other text.'),
  campaign_type: d(requiredText(50), 'Kind of campaign, free text (e.g. outbound).'),
  contacts_list_source: d(z.array(text(200)).max(1000), 'Select contacts whose sourceName is one of these; empty selects all.'),
  contacts_list_tags: d(nestedStrings(), 'Select contacts whose tagName is one of these; empty selects all.'),
  contacts_list_categories: d(nestedStrings(), 'Select contacts whose categoryName is one of these; empty selects all.'),
  contacts_list_source_metadata: d(jsonObject(), 'Free-form data about the contact sources.'),
  agent_variables_contact_metadata_mapping: d(jsonObject(), 'Agent variable name to a path into the contact (firstname, metadata.plan).'),
  call_progress: d(intBetween(0, 100), 'Percent of the selected contacts settled.'),
  call_time_of_day_from: d(timeOfDay(), 'HH:MM:SS.'),
  call_time_of_day_to: d(timeOfDay(), 'HH:MM:SS.'),
  number_of_call_attempts: d(z.array(intBetween(1, 100)).max(20), 'Attempts per retry tier.'),
  retry_delay: d(z.array(intBetween(0, 1_000_000)).max(20), 'Delay before a retry, per tier.'),
  retry_delay_unit: d(z.array(z.enum(RETRY_UNITS, { error: rule(`Must be one of ${RETRY_UNITS.join(', ')}`) })).max(20), 'seconds, minutes, hours or days, one per tier.'),
  days_of_week: d(
    z
      .array(intBetween(1, 7))
      .max(7)
      .refine((days) => new Set(days).size === days.length, 'Days must not repeat'),
    '1 = Monday ... 7 = Sunday.',
  ),
  time_zone: d(timeZone(), 'IANA time zone such as America/New_York.'),
  allow_non_local_calls: d(z.boolean(), 'False skips contacts whose country code differs from the outbound number.'),
  created_at: timestamp(),
  updated_at: timestamp(),
  deleted_at: timestamp().nullable(),
  started_at: d(isoDate().nullable(), 'YYYY-MM-DD.'),
  ended_at: d(isoDate().nullable(), 'YYYY-MM-DD.'),
  webhook_mapping_variables: d(jsonObject(), 'Flow variable name to a path into a source record, for the flow run after each call.'),
  webhook_mapping_variables_sources: d(jsonObject(), 'Sources the mapping reads: call, contact, campaign, agent_post_call_outcomes.'),
  max_concurrent_calls: d(intBetween(1, 1000), 'Most calls of the campaign live at once, 1 to 1000.'),
};

/** Create's fields beyond update's. */
export const campaignCreateFields = { workspace: d(workspace(), 'Defaults to "default".') };

/**
 * How GraphQL's campaign inputs depart from the REST input: no company or timestamps (the
 * legacy update accepts and checks or ignores them), status first.
 */
export const campaignInputOverride = {
  omit: ['company_id', 'created_at', 'updated_at', 'deleted_at'],
  after: { status: 'notes', campaign_type: 'status' },
};

/** Documented update (REST's body): every field optional; unknown fields are ignored (legacy clients). */
export const updateCampaignInput = z.object(campaignFields).partial();

/** Management create (REST's body): the same fields plus `workspace`; `name` required; unknown fields refused. */
export const createCampaignInput = z.strictObject(campaignFields).partial().required({ name: true }).extend(campaignCreateFields);

/**
 * Update and create as the service validates them: the same fields camelCased, as GraphQL's
 * inputs (derived from them) send them, REST's body renamed at its edge, and the entity names them.
 */
const camelCampaignFields = camelKeys(campaignFields);
export const updateCampaignWrite = z.object(camelCampaignFields).partial();
export const createCampaignWrite = z.strictObject(camelCampaignFields).partial().required({ name: true }).extend(campaignCreateFields);

/** What `CampaignService.update` and `create` take (and validate). */
export type CampaignUpdateInput = z.input<typeof updateCampaignWrite>;
export type CampaignCreateInput = z.input<typeof createCampaignWrite>;

/** A validated update. */
export type CampaignWrite = z.output<typeof updateCampaignWrite>;

/** The view of a stored campaign. */
export const toCampaignView = (campaign: Campaign): CampaignView => viewOf(campaignContract, campaign, { workspaceId: (c) => c.workspace });
