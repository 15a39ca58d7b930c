import { z } from 'zod';
import { campaignContract } from '../services/campaign.contract';
import type { CampaignStats } from '../services/campaign.service';
import { restShape } from './contract-shape';
import { iso, shape } from './serialize';

/** Campaign, interface 2.2, derived from its contract. */
const campaign = restShape(campaignContract);
export const campaignShape = campaign.schema;
export const serializeCampaign = campaign.serialize;

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
