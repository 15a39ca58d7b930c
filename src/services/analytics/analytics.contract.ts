import { z } from 'zod';
import { CALL_STATUSES } from '../../entities/call.entity';
import type { AnalyticsGroup } from './analytics.input';
import { LATENCY_RELATIVE_ERROR } from './latency-histogram';
import { defineContract, described as d, namedObject, type ViewOf } from '../shared/contract';

const outcomeCount = namedObject(
  z.object({
    outcome: d(z.enum(CALL_STATUSES), "The calls' status."),
    calls: d(z.int(), 'Calls with this status.'),
  }),
  'AnalyticsOutcome',
  'How many calls of a group ended (or stand) in one status.',
);

/** One group's figures (docs/analytics.md); the whole range's too. */
export const analyticsRowContract = defineContract({
  name: 'AnalyticsRow',
  view: z.object({
    key: d(z.string().nullable(), 'The group: a day (YYYY-MM-DD), a campaign id, an agent id or a call status; null for calls without a campaign, and for the whole range.'),
    calls: d(z.int(), 'Calls made.'),
    answered: d(z.int(), 'Calls answered (by a person or a machine).'),
    answerRate: d(z.number(), 'Answered calls / calls, from 0 to 1.'),
    averageDurationSeconds: d(z.number().nullable(), 'Mean seconds answered, over the answered calls; null when none was.'),
    cost: d(z.number(), "Sum of the calls' cost, in their price unit."),
    latencyMedianMs: d(
      z.number().nullable(),
      `Median of the agent's answer latency over every answering turn of these calls (transcript latency_ms), from a histogram: within ${LATENCY_RELATIVE_ERROR * 100}% of the exact median (latencies under 1 ms count as 0); null when none was measured.`,
    ),
    latencyP90Ms: d(z.number().nullable(), `90th percentile of the same latencies, within ${LATENCY_RELATIVE_ERROR * 100}% as the median; null when none was measured.`),
    outcomes: d(z.array(outcomeCount), 'The calls by status, most first; statuses without calls are left out.'),
  }),
});
export type AnalyticsRowView = ViewOf<typeof analyticsRowContract>;

/** The answer to an analytics query: one row per group, in key order, and the whole range's. */
export interface AnalyticsView {
  from: Date;
  to: Date;
  groupBy: AnalyticsGroup;
  timeZone: string;
  total: AnalyticsRowView;
  rows: AnalyticsRowView[];
}
