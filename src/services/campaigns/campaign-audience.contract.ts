import { z } from 'zod';
import { contactContract } from '../contacts/contact.contract';
import { defineContract, described as d, namedObject, type ViewOf } from '../shared/contract';

const skipped = namedObject(
  z.object({
    do_not_call: d(z.int(), "Numbers on the company's do-not-call list."),
    non_local: d(z.int(), "Numbers of another country than the outbound number's, when the campaign does not allow non-local calls."),
    inactive: d(z.int(), 'Contacts whose status is not active.'),
  }),
  'AudienceSkipped',
  'Contacts a campaign selects but will not call, by reason (each counted under its first reason, in this order: inactive, do-not-call, non-local).',
);

/**
 * Who a campaign will call (docs/campaigns.md, "Audience preview"), from the dialer's own
 * selection and skip rules: REST `GET /v1/campaigns/by-id/{id}/audience`, /openapi.json and
 * the GraphQL `CampaignAudience` type (a campaign's `audience` field).
 */
export const campaignAudienceContract = defineContract({
  name: 'CampaignAudience',
  view: z.object({
    matched: d(
      z.int(),
      "Contacts the campaign's selection matches now, whatever their status (every contact of the company when it names no campaign contacts and no filter). Exact, except past AUDIENCE_COUNT_LIMIT (default 10,000) for a campaign with filters or contacts of its own: then the count stopped there, and this is that limit, a lower bound to show as `10,000+`.",
    ),
    matched_exact: d(z.boolean(), 'Whether the matched number is exact: false only when it is the lower bound of a count that stopped at AUDIENCE_COUNT_LIMIT.'),
    callable: d(z.int(), 'Counted contacts the dialer will call: the counted minus the skipped (every matched contact is counted unless capped).'),
    skipped: d(skipped, 'Counted contacts the dialer will skip, by reason.'),
    capped: d(
      z.boolean(),
      "The selection matches more than AUDIENCE_COUNT_LIMIT contacts: the callable and skipped ones are counted among the first that many in the dialer's order (oldest first), not among every matched contact.",
    ),
    sample: d(z.array(contactContract.view), 'Up to `limit` of the callable contacts, newest first.'),
  }),
  graphql: { omit: ['sample'] },
});

export type CampaignAudienceView = ViewOf<typeof campaignAudienceContract>;
