import { z } from 'zod';
import { defineContract, described as d, field, type ViewOf } from '../shared/contract';

/**
 * How far a campaign has got (docs/campaigns.md): its selected contacts counted by state,
 * with its status and progress, as services return it and every surface shows it: REST
 * (`GET /v1/campaigns/by-id/{id}/stats`), /openapi.json and the GraphQL `CampaignStats`
 * type, which a campaign's `stats` field returns and so leaves out what the campaign shows.
 */
export const campaignStatsContract = defineContract({
  name: 'CampaignStats',
  view: z.object({
    campaignId: d(field.id(), 'Id of the campaign.'),
    status: d(z.string(), 'Status of the campaign.'),
    callProgress: d(z.int(), 'Percent of the selected contacts settled, from the same read as the counts.'),
    contactsSelected: d(z.int(), 'Contacts the campaign selected.'),
    settled: d(z.int(), 'Contacts done with: picked up, failed every attempt, skipped, canceled or expired.'),
    pickedUp: d(z.int(), 'Contacts answered by a person.'),
    failed: d(z.int(), 'Contacts whose every attempt failed.'),
    inProgress: d(z.int(), 'Contacts with a call live now.'),
    queued: d(z.int(), 'Contacts waiting for their next attempt.'),
    skipped: d(z.int(), 'Contacts never called: on the do-not-call list, non-local, or made inactive.'),
    skippedReasons: d(z.record(z.string(), z.int()), 'Skipped contacts by reason: do_not_call, non_local, contact_inactive.'),
    nextAttemptAt: d(z.date().nullable(), 'When the next attempt is due, window permitting; null when none waits or the campaign is not active.'),
  }),
  graphql: { omit: ['campaignId', 'status', 'callProgress'] },
});

export type CampaignStatsView = ViewOf<typeof campaignStatsContract>;
