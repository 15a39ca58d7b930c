import { z } from 'zod';
import type { Campaign } from '../../entities';
import { camelKeys } from '../shared/naming';
import { declareFields, defineContract, field, readOnly, readWrite, type ViewOf, viewOf } from '../shared/contract';
import { versionWeight } from '../agents/agent-version.contract';
import { versionNumber, versionWeights } from '../agents/agent-version.input';
import { nestedStrings, RETRY_UNITS, timeOfDay, timeZone } from './campaign.input';
import { intBetween, isoDate, jsonObject, requiredText, rule, text, timestamp, uuid, workspace } from '../shared/common.input';

/**
 * The campaign's fields, each declared once: how services return it and every surface shows
 * it (REST, interface 2.2, then the related ids that update accepts and the
 * `max_concurrent_calls` extension; /openapi.json; the GraphQL `Campaign` type), and what
 * update (interface 4.2) and create accept, in the documented order of interface 4.2.
 */
const campaign = declareFields(
  {
    id: readOnly('Unique id (UUID).', field.id()),
    name: readWrite('Name of the campaign.', z.string(), requiredText(200)),
    notes: readWrite('Free-form notes.', z.string(), text(10_000)),
    status: readWrite('Draft, active, paused, completed, or any status written through update.', z.string(), requiredText(50), {
      writes: 'Draft, active (starts dialing), paused, completed, or any other text.',
    }),
    campaignType: readWrite('Kind of campaign, free text (e.g. outbound).', z.string(), requiredText(50)),
    callProgress: readWrite('Percent of the selected contacts settled.', z.int(), intBetween(0, 100)),
    daysOfWeek: readWrite(
      '1 = Monday ... 7 = Sunday.',
      z.array(z.int()),
      z
        .array(intBetween(1, 7))
        .max(7)
        .refine((days) => new Set(days).size === days.length, 'Days must not repeat'),
    ),
    timeZone: readWrite('IANA time zone of the calling window.', z.string(), timeZone(), { writes: 'IANA time zone such as America/New_York.' }),
    workspaceId: readWrite('Workspace slug of the campaign.', z.string(), workspace(), { writes: 'Defaults to "default".', writtenAs: 'workspace' }),
    contactsListSource: readWrite('Select contacts whose sourceName is one of these; empty selects all.', z.array(z.string()), z.array(text(200)).max(1000)),
    contactsListTags: readWrite('Select contacts whose tagName is one of these; empty selects all.', z.array(z.string()), nestedStrings()),
    contactsListCategories: readWrite('Select contacts whose categoryName is one of these; empty selects all.', z.array(z.string()), nestedStrings()),
    contactsListSourceMetadata: readWrite('Free-form data about the contact sources.', field.json(), jsonObject()),
    agentVariablesContactMetadataMapping: readWrite('Agent variable name to a path into the contact (firstname, metadata.plan).', field.json(), jsonObject()),
    callTimeOfDayFrom: readWrite('HH:MM:SS in the campaign time zone.', z.iso.time({ precision: 0 }), timeOfDay()),
    callTimeOfDayTo: readWrite('HH:MM:SS in the campaign time zone.', z.iso.time({ precision: 0 }), timeOfDay()),
    numberOfCallAttempts: readWrite('Attempts per retry tier.', z.array(z.int()), z.array(intBetween(1, 100)).max(20)),
    retryDelay: readWrite('Delay before a retry, per tier, in `retryDelayUnit`.', z.array(z.int()), z.array(intBetween(0, 1_000_000)).max(20)),
    retryDelayUnit: readWrite('Unit of `retryDelay`, per tier.', z.array(z.enum(RETRY_UNITS)), z.array(z.enum(RETRY_UNITS, { error: rule(`Must be one of ${RETRY_UNITS.join(', ')}`) })).max(20), {
      writes: 'seconds, minutes, hours or days, one per tier.',
    }),
    startedAt: readWrite('First calling date (YYYY-MM-DD) in the campaign time zone.', z.iso.date().nullable(), isoDate().nullable()),
    endedAt: readWrite('Last calling date (YYYY-MM-DD) in the campaign time zone, included.', z.iso.date().nullable(), isoDate().nullable()),
    webhookMappingVariables: readWrite('Flow variable name to a path into a source record, for the flow run after each call.', field.json(), jsonObject()),
    webhookMappingVariablesSources: readWrite('Sources the mapping reads: call, contact, campaign, agent_post_call_outcomes.', field.json(), jsonObject()),
    companyId: readWrite('Id of the company.', field.id(), uuid()),
    ownerUserId: readWrite('Id of the user who owns the campaign.', field.id().nullable(), uuid().nullable()),
    aiAgentId: readWrite('Id of the agent that makes the calls.', field.id().nullable(), uuid().nullable()),
    aiAgentVersion: readWrite('A published version of the agent every call runs; null: the latest published, else the draft.', z.int().nullable(), versionNumber().nullable()),
    aiAgentVersions: readWrite('Versions the calls are split between by weight (an A/B test), instead of one; null: none.', z.array(versionWeight).nullable(), versionWeights().nullable(), {
      writes: 'Split the calls between published versions by weight (an A/B test) instead of one version; each call records which it ran.',
    }),
    inboundPhoneNumberId: readWrite('Id of the number inbound calls arrive on.', field.id().nullable(), uuid().nullable()),
    outboundPhoneNumberId: readWrite('Id of the number the calls are made from.', field.id().nullable(), uuid().nullable()),
    webhookId: readWrite('Id of the flow triggered after each call.', field.id().nullable(), uuid().nullable()),
    allowNonLocalCalls: readWrite('False skips contacts whose country code differs from the outbound number.', z.boolean(), z.boolean()),
    maxConcurrentCalls: readWrite('Most calls of the campaign live at once, 1 to 1000.', z.int(), intBetween(1, 1000)),
    // The legacy update accepts the timestamps (and the company), and checks or ignores them.
    createdAt: readWrite('When the record was created.', z.date(), timestamp()),
    updatedAt: readWrite('When the record last changed.', z.date(), timestamp()),
    deletedAt: readWrite('Set when deleted; a deleted campaign still shows through the calls that name it.', z.date().nullable(), timestamp().nullable()),
  },
  {
    writeOrder: [
      'name',
      'notes',
      'companyId',
      'ownerUserId',
      'aiAgentId',
      'aiAgentVersion',
      'aiAgentVersions',
      'inboundPhoneNumberId',
      'outboundPhoneNumberId',
      'webhookId',
      'status',
      'campaignType',
      'contactsListSource',
      'contactsListTags',
      'contactsListCategories',
      'contactsListSourceMetadata',
      'agentVariablesContactMetadataMapping',
      'callProgress',
      'callTimeOfDayFrom',
      'callTimeOfDayTo',
      'numberOfCallAttempts',
      'retryDelay',
      'retryDelayUnit',
      'daysOfWeek',
      'timeZone',
      'allowNonLocalCalls',
      'createdAt',
      'updatedAt',
      'deletedAt',
      'startedAt',
      'endedAt',
      'webhookMappingVariables',
      'webhookMappingVariablesSources',
      'maxConcurrentCalls',
      'workspaceId',
    ],
  },
);

export const campaignContract = defineContract({
  name: 'Campaign',
  view: campaign.view,
  // Interface 2.2 orders the timestamps with the documented fields and names the workspace `workspace`.
  rest: { rename: { workspaceId: 'workspace' }, after: { createdAt: 'timeZone', updatedAt: 'createdAt', deletedAt: 'retryDelayUnit' } },
  graphql: { omit: ['companyId'] },
});

export type CampaignView = ViewOf<typeof campaignContract>;

const { workspace: createdIn, ...campaignWrites } = campaign.write();

/**
 * Fields campaign update (interface 4.2) and create accept, in the documented snake_case:
 * REST validates its body with them as sent, GraphQL's inputs are derived from them
 * (camelCase), and both name the same fields in validation errors.
 */
export const campaignFields = campaignWrites;

/** Create's fields beyond update's: the workspace, fixed once created. */
export const campaignCreateFields = { workspace: createdIn };

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
