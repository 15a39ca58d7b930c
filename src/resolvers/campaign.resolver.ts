import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { foundOrNull } from '../graphql/lookup';
import { pageInput, presentFilters } from '../graphql/input';
import { AUDIENCE_COST, perNode } from '../graphql/limits';
import { AiAgentType } from '../schema/ai-agent.type';
import { CallConnection, type CallType } from '../schema/call.type';
import { CreateCampaignInput, UpdateCampaignInput } from '../schema/campaign.input';
import { CampaignStatsType } from '../schema/campaign-stats.type';
import { CampaignAudienceType } from '../schema/campaign-audience.type';
import { CampaignConnection, CampaignType } from '../schema/campaign.type';
import { type Connection, connectionOf } from '../schema/connection.type';
import { CampaignsArgs, PageArgs } from '../schema/page.args';
import type { CampaignService } from '../services/campaigns/campaign.service';
import type { CampaignCreateInput, CampaignUpdateInput } from '../services/campaigns/campaign.contract';

@Resolver(() => CampaignType)
export class CampaignResolver {
  constructor(private readonly campaignService: CampaignService) {}

  @Query(() => CampaignType, { nullable: true, description: 'One campaign of your company; null when there is none with this id.' })
  async campaign(@Arg('id', () => ID, { description: 'The campaign id.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<CampaignType | null> {
    return foundOrNull(this.campaignService.get(caller, id));
  }

  @Query(() => CampaignConnection, { complexity: perNode, description: 'Campaigns, newest first, of one workspace or all.' })
  async campaigns(@Args(() => CampaignsArgs) { first, after, ...filters }: CampaignsArgs, @Ctx() { caller }: GraphQLContext): Promise<Connection<CampaignType>> {
    const input = { ...presentFilters(filters), ...pageInput(first, after) };
    return connectionOf({
      page: await this.campaignService.page(caller, input),
      node: (campaign) => campaign,
      count: () => this.campaignService.count(caller, input),
      after,
    });
  }

  @Mutation(() => CampaignType, { description: 'Creates a campaign (draft unless a status is given).' })
  async createCampaign(@Arg('input', () => CreateCampaignInput, { description: 'The fields to write.' }) input: CampaignCreateInput, @Ctx() { caller }: GraphQLContext): Promise<CampaignType> {
    return this.campaignService.create(caller, input);
  }

  @Mutation(() => CampaignType, { description: 'Partial update: fields left out stay; nullable fields sent as null are cleared.' })
  async updateCampaign(
    @Arg('id', () => ID, { description: 'Id of the record.' }) id: string,
    @Arg('input', () => UpdateCampaignInput, { description: 'The fields to write.' }) input: CampaignUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<CampaignType> {
    return this.campaignService.update(caller, id, input);
  }

  @Mutation(() => ID, { description: 'Soft delete; answers the id.' })
  async deleteCampaign(@Arg('id', () => ID, { description: 'Id of the record.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    await this.campaignService.delete(caller, id);
    return id;
  }

  @FieldResolver(() => AiAgentType, { nullable: true, description: 'The agent that makes the calls, if set.' })
  async aiAgent(@Root() campaign: CampaignType, @Ctx() { loaders }: GraphQLContext): Promise<AiAgentType | null> {
    return campaign.aiAgentId ? loaders.agent.load(campaign.aiAgentId) : null;
  }

  @FieldResolver(() => CampaignStatsType, { description: 'Its contacts by state; batched across a list of campaigns.' })
  async stats(@Root() campaign: CampaignType, @Ctx() { loaders }: GraphQLContext): Promise<CampaignStatsType> {
    return loaders.campaignStats.load(campaign.id);
  }

  @FieldResolver(() => CampaignAudienceType, {
    complexity: AUDIENCE_COST,
    description: 'Who it will call if it dials now: the contacts its selection matches, those skipped by reason, and a sample (docs/campaigns.md, "Audience preview").',
  })
  async audience(
    @Root() campaign: CampaignType,
    @Arg('limit', () => Int, { defaultValue: 10, description: 'How many callable contacts the sample holds: 0 to 100.' }) limit: number,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<CampaignAudienceType> {
    return this.campaignService.audience(caller, campaign.id, { limit });
  }

  @FieldResolver(() => CallConnection, { complexity: perNode, description: "The campaign's calls, newest first." })
  async calls(@Root() campaign: CampaignType, @Args() { first, after }: PageArgs, @Ctx() { loaders }: GraphQLContext): Promise<Connection<CallType>> {
    const page = await loaders.campaignCalls.load({ parentId: campaign.id, ...pageInput(first, after) });
    return connectionOf({ page, node: (call) => call, count: () => loaders.campaignCallCount.load(campaign.id), after });
  }
}
