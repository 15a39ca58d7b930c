import { campaignCreateFields, type CampaignCreateInput, campaignFields, campaignInputOverride, type CampaignUpdateInput } from '../services/campaigns/campaign.contract';
import { contractInputType } from './contract.type';

/** Partial update: fields left out stay as they were; a nullable field sent as null is cleared. */
export const UpdateCampaignInput = contractInputType<CampaignUpdateInput>(
  'UpdateCampaignInput',
  'Partial update: fields left out stay as they were; a nullable field sent as null is cleared.',
  campaignFields,
  campaignInputOverride,
);

export const CreateCampaignInput = contractInputType<CampaignCreateInput>(
  'CreateCampaignInput',
  'A new campaign (status draft unless given); fields left out take their defaults.',
  { ...campaignFields, ...campaignCreateFields },
  { ...campaignInputOverride, required: ['name'] },
);
