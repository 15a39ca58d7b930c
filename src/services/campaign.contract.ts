import { z } from 'zod';
import type { Campaign } from '../entities';
import { defineContract, described as d, field, type ViewOf, viewOf } from './contract';
import { RETRY_UNITS } from './input/campaign.input';

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

/** The view of a stored campaign. */
export const toCampaignView = (campaign: Campaign): CampaignView =>
  viewOf(campaignContract, campaign, { workspaceId: (c) => c.workspace });
