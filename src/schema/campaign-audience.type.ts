import { campaignAudienceContract, type CampaignAudienceView } from '../services/campaigns/campaign-audience.contract';
import { contractObjectType } from './contract.type';

/** Who a campaign will call (docs/campaigns.md, "Audience preview"), from its contract; `sample` is a field resolver. */
export const CampaignAudienceType = contractObjectType(campaignAudienceContract, {
  description: 'Who a campaign will call: the contacts its selection matches, those skipped by reason, and a sample.',
});
export type CampaignAudienceType = CampaignAudienceView;
