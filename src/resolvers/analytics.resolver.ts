import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { AUDIENCE_COST } from '../graphql/limits';
import { AnalyticsArgs, AnalyticsType } from '../schema/analytics.type';
import type { AnalyticsService } from '../services/analytics/analytics.service';

@Resolver(() => AnalyticsType)
export class AnalyticsResolver {
  constructor(private readonly analyticsService: AnalyticsService) {}

  @Query(() => AnalyticsType, {
    complexity: AUDIENCE_COST,
    description: "Call figures of your company from `from` to `to` (at most 366 days), grouped by day, campaign, agent or outcome, with the whole range's.",
  })
  async analytics(@Args() { timeZone, ...args }: AnalyticsArgs, @Ctx() { caller }: GraphQLContext): Promise<AnalyticsType> {
    return this.analyticsService.analytics(caller, { ...args, ...(timeZone ? { timeZone } : {}) });
  }
}
