import { campaignStatsContract, type CampaignStatsView } from '../services/campaigns/campaign-stats.contract';
import { contractObjectType } from './contract.type';

/** How far a campaign has got: its selected contacts by state (docs/campaigns.md), from its contract. */
export const CampaignStatsType = contractObjectType(campaignStatsContract, { description: "A campaign's selected contacts counted by state." });
export type CampaignStatsType = CampaignStatsView;
