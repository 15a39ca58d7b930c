import { FieldResolver, Resolver, Root } from 'type-graphql';
import { CampaignAudienceType } from '../schema/campaign-audience.type';
import { ContactType } from '../schema/contact.type';

@Resolver(() => CampaignAudienceType)
export class CampaignAudienceResolver {
  @FieldResolver(() => [ContactType], { description: 'Up to `limit` of the contacts the campaign will call, newest first.' })
  sample(@Root() audience: CampaignAudienceType): ContactType[] {
    return audience.sample;
  }
}
