import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import type { CampaignStats } from '../services/campaign.service';

/** How far a campaign has got: its selected contacts by state (docs/campaigns.md). */
@ObjectType('CampaignStats', { simpleResolvers: true, description: 'A campaign\'s selected contacts counted by state.' })
export class CampaignStatsType {
  @Field(() => Int, { description: 'Contacts the campaign selected.' })
  contactsSelected!: number;

  @Field(() => Int, { description: 'Contacts done with: picked up, failed every attempt, skipped, canceled or expired.' })
  settled!: number;

  @Field(() => Int, { description: 'Contacts answered by a person.' })
  pickedUp!: number;

  @Field(() => Int, { description: 'Contacts whose every attempt failed.' })
  failed!: number;

  @Field(() => Int, { description: 'Contacts with a call live now.' })
  inProgress!: number;

  @Field(() => Int, { description: 'Contacts waiting for their next attempt.' })
  queued!: number;

  @Field(() => Int, { description: 'Contacts never called: on the do-not-call list, non-local, or made inactive.' })
  skipped!: number;

  @Field(() => GraphQLJSONObject, { description: 'Skipped contacts by reason: do_not_call, non_local, contact_inactive.' })
  skippedReasons!: Record<string, number>;

  @Field(() => Date, { nullable: true, description: 'When the next attempt is due, window permitting; null when none waits or the campaign is not active.' })
  nextAttemptAt!: Date | null;
}

export function toCampaignStatsType(s: CampaignStats): CampaignStatsType {
  return {
    contactsSelected: s.contactsSelected,
    settled: s.settled,
    pickedUp: s.pickedUp,
    failed: s.failed,
    inProgress: s.inProgress,
    queued: s.queued,
    skipped: s.skipped,
    skippedReasons: s.skippedReasons,
    nextAttemptAt: s.nextAttemptAt,
  };
}
