import { campaignContract } from '../services/campaigns/campaign.contract';
import { campaignStatsContract } from '../services/campaigns/campaign-stats.contract';
import { campaignAudienceContract } from '../services/campaigns/campaign-audience.contract';
import { restShape } from './contract-shape';

/** Campaign, interface 2.2, derived from its contract. */
const campaign = restShape(campaignContract);
export const campaignShape = campaign.schema;
export const serializeCampaign = campaign.serialize;
/** A stored campaign's REST JSON, written straight from it (the by-id hot read). */
export const campaignJson = campaign.json;

/** `GET /v1/campaigns/by-id/{id}/stats` (docs/campaigns.md), derived from its contract. */
const campaignStats = restShape(campaignStatsContract);
export const campaignStatsShape = campaignStats.schema;
export const serializeCampaignStats = campaignStats.serialize;

const campaignAudience = restShape(campaignAudienceContract);
export const campaignAudienceShape = campaignAudience.schema;
export const serializeCampaignAudience = campaignAudience.serialize;
