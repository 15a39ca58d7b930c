import { z } from 'zod';
import type { CampaignStats } from '../services/campaign.service';
import type { CampaignRecord } from '../services/campaigns/campaign.store';
import { RETRY_UNITS } from '../services/input/campaign.input';
import { iso, refId, shape } from './serialize';

const date = () => z.iso.date().nullable();

/**
 * Campaign, interface 2.2, then the related-record fields that update accepts (so what is
 * written can be read back) and the `max_concurrent_calls` extension.
 */
export const campaignShape = z
  .strictObject({
    id: shape.id(),
    name: z.string(),
    notes: z.string(),
    status: z.string(),
    campaign_type: z.string(),
    call_progress: z.int(),
    days_of_week: z.array(z.int()),
    time_zone: z.string(),
    created_at: shape.timestamp(),
    updated_at: shape.timestamp(),
    workspace: z.string(),
    contacts_list_source: z.array(z.string()),
    contacts_list_tags: z.array(z.string()),
    contacts_list_categories: z.array(z.string()),
    contacts_list_source_metadata: shape.json(),
    agent_variables_contact_metadata_mapping: shape.json(),
    call_time_of_day_from: z.iso.time({ precision: 0 }),
    call_time_of_day_to: z.iso.time({ precision: 0 }),
    number_of_call_attempts: z.array(z.int()),
    retry_delay: z.array(z.int()),
    retry_delay_unit: z.array(z.enum(RETRY_UNITS)),
    deleted_at: shape.timestamp().nullable(),
    started_at: date(),
    ended_at: date(),
    webhook_mapping_variables: shape.json(),
    webhook_mapping_variables_sources: shape.json(),
    company_id: shape.id(),
    owner_user_id: shape.id().nullable(),
    ai_agent_id: shape.id().nullable(),
    inbound_phone_number_id: shape.id().nullable(),
    outbound_phone_number_id: shape.id().nullable(),
    webhook_id: shape.id().nullable(),
    allow_non_local_calls: z.boolean(),
    max_concurrent_calls: z.int(),
  })
  .meta({ id: 'Campaign' });

export function serializeCampaign(c: CampaignRecord): z.output<typeof campaignShape> {
  return {
    id: c.id,
    name: c.name,
    notes: c.notes,
    status: c.status,
    campaign_type: c.campaignType,
    call_progress: c.callProgress,
    days_of_week: c.daysOfWeek,
    time_zone: c.timeZone,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    workspace: c.workspace,
    contacts_list_source: c.contactsListSource,
    contacts_list_tags: c.contactsListTags,
    contacts_list_categories: c.contactsListCategories,
    contacts_list_source_metadata: c.contactsListSourceMetadata,
    agent_variables_contact_metadata_mapping: c.agentVariablesContactMetadataMapping,
    call_time_of_day_from: c.callTimeOfDayFrom,
    call_time_of_day_to: c.callTimeOfDayTo,
    number_of_call_attempts: c.numberOfCallAttempts,
    retry_delay: c.retryDelay,
    // Stored only through the input's enum.
    retry_delay_unit: c.retryDelayUnit as (typeof RETRY_UNITS)[number][],
    deleted_at: iso(c.deletedAt),
    started_at: c.startedAt,
    ended_at: c.endedAt,
    webhook_mapping_variables: c.webhookMappingVariables,
    webhook_mapping_variables_sources: c.webhookMappingVariablesSources,
    company_id: c.company.id,
    owner_user_id: c.ownerUserId,
    ai_agent_id: refId(c.aiAgent),
    inbound_phone_number_id: refId(c.inboundPhoneNumber),
    outbound_phone_number_id: refId(c.outboundPhoneNumber),
    webhook_id: refId(c.webhook),
    allow_non_local_calls: c.allowNonLocalCalls,
    max_concurrent_calls: c.maxConcurrentCalls,
  };
}

/** `GET /v1/campaigns/by-id/{id}/stats` (docs/campaigns.md). */
export const campaignStatsShape = z
  .strictObject({
    campaign_id: shape.id(),
    status: z.string(),
    call_progress: z.int(),
    contacts_selected: z.int(),
    settled: z.int(),
    picked_up: z.int(),
    failed: z.int(),
    in_progress: z.int(),
    queued: z.int(),
    skipped: z.int(),
    skipped_reasons: z.record(z.string(), z.int()),
    next_attempt_at: shape.timestamp().nullable(),
  })
  .meta({ id: 'CampaignStats' });

export function serializeCampaignStats(s: CampaignStats): z.output<typeof campaignStatsShape> {
  return {
    campaign_id: s.campaignId,
    status: s.status,
    call_progress: s.callProgress,
    contacts_selected: s.contactsSelected,
    settled: s.settled,
    picked_up: s.pickedUp,
    failed: s.failed,
    in_progress: s.inProgress,
    queued: s.queued,
    skipped: s.skipped,
    skipped_reasons: s.skippedReasons,
    next_attempt_at: iso(s.nextAttemptAt),
  };
}
