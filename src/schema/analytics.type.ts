import { ArgsType, Field, ObjectType } from 'type-graphql';
import { ANALYTICS_GROUPS, type AnalyticsGroup } from '../services/analytics/analytics.input';
import { analyticsRowContract, type AnalyticsRowView } from '../services/analytics/analytics.contract';
import { closedSet } from './closed-set';
import { contractObjectType } from './contract.type';

export const AnalyticsGroupBy = closedSet('AnalyticsGroupBy', ANALYTICS_GROUPS, 'What analytics groups calls by.', {
  day: "The day the call was made, in the query's time zone (key YYYY-MM-DD).",
  campaign: "The call's campaign (key: its id; null for calls without one, such as test calls).",
  agent: "The call's agent (key: its id).",
  outcome: "The call's status (key: the status, as REST writes it).",
});

export const AnalyticsRowType = contractObjectType(analyticsRowContract, { description: 'The call figures of one group, or of the whole range.' });
export type AnalyticsRowType = AnalyticsRowView;

@ArgsType()
export class AnalyticsArgs {
  @Field(() => String, { description: 'Calls made at or after this instant (ISO 8601 with offset).' })
  from!: string;

  @Field(() => String, { description: 'Calls made before this instant (ISO 8601 with offset); at most 366 days after from.' })
  to!: string;

  @Field(() => AnalyticsGroupBy, { description: 'What the rows group calls by.' })
  groupBy!: AnalyticsGroup;

  @Field(() => String, { nullable: true, description: 'IANA time zone days are read in (day groups); UTC unless given.' })
  timeZone?: string | null;
}

@ObjectType('Analytics', { description: 'Call figures of your company over a range of time, computed in the database (docs/analytics.md).' })
export class AnalyticsType {
  @Field({ description: 'Start of the range (included).' })
  from!: Date;

  @Field({ description: 'End of the range (excluded).' })
  to!: Date;

  @Field(() => AnalyticsGroupBy, { description: 'What the rows group calls by.' })
  groupBy!: AnalyticsGroup;

  @Field({ description: 'The time zone days were read in.' })
  timeZone!: string;

  @Field(() => AnalyticsRowType, { description: 'The whole range.' })
  total!: AnalyticsRowType;

  @Field(() => [AnalyticsRowType], { description: 'One row per group with calls, in key order (calls without a campaign last).' })
  rows!: AnalyticsRowType[];
}
