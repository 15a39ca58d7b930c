import type { Campaign } from '../entities';
import type { CampaignStats } from '../services/campaign.service';
import { iso, refId } from './serialize';

/**
 * Campaign, interface 2.2, then the related-record fields that update accepts (so what is
 * written can be read back) and the `max_concurrent_calls` extension.
 */
export function serializeCampaign(c: Campaign) {
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
    retry_delay_unit: c.retryDelayUnit,
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

/** `GET /v1/campaigns/{id}/stats` (docs/campaigns.md). */
export function serializeCampaignStats(s: CampaignStats) {
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
