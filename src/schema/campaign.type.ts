import { campaignContract, type CampaignView } from '../services/campaigns/campaign.contract';
import { ConnectionType } from './connection.type';
import { contractObjectType } from './contract.type';
import { Node } from './node.type';

/** A calling job over a contact selection, from its contract. `aiAgent`, `stats` and `calls` resolve on demand. */
export const CampaignType = contractObjectType(campaignContract, {
  implements: Node,
  description: 'A scheduled, repeatable calling job over a selection of contacts.',
});
export type CampaignType = CampaignView;

export const CampaignConnection = ConnectionType('Campaign', CampaignType);
