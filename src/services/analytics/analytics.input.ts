import { z } from 'zod';
import { timeZone } from '../campaigns/campaign.input';
import { rule, timestamp } from '../shared/common.input';

/** What analytics groups calls by: the day they were made (in `timeZone`), their campaign, their agent, or their outcome. */
export const ANALYTICS_GROUPS = ['day', 'campaign', 'agent', 'outcome'] as const;
export type AnalyticsGroup = (typeof ANALYTICS_GROUPS)[number];

/** Longest range one analytics query covers, in days. */
export const MAX_ANALYTICS_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An analytics query (docs/analytics.md): calls made from `from` (included) to `to`
 * (excluded), ISO 8601 instants with an offset, at most MAX_ANALYTICS_DAYS apart, grouped by `groupBy`; days are read in
 * `timeZone` (IANA, UTC unless said).
 */
export const analyticsInput = z
  .strictObject({
    from: timestamp().transform((at) => new Date(at)),
    to: timestamp().transform((at) => new Date(at)),
    groupBy: z.enum(ANALYTICS_GROUPS, { error: rule(`Must be one of ${ANALYTICS_GROUPS.join(', ')}`) }),
    timeZone: timeZone().default('UTC'),
  })
  .superRefine(({ from, to }, ctx) => {
    // zod runs this refinement after a field's own (continuable) check failed too: such a field is left to its own error.
    if (!(from instanceof Date) || !(to instanceof Date)) return;
    if (to.getTime() <= from.getTime()) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must be after from' });
    else if (to.getTime() - from.getTime() > MAX_ANALYTICS_DAYS * DAY_MS) ctx.addIssue({ code: 'custom', path: ['to'], message: `Must be at most ${MAX_ANALYTICS_DAYS} days after from` });
  });
export type AnalyticsInput = z.input<typeof analyticsInput>;
export type AnalyticsQuery = z.output<typeof analyticsInput>;
