import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';

/** Partial update: fields left out stay as they were; a nullable field sent as null is cleared. */
@InputType('UpdateCampaignInput')
export class UpdateCampaignInput {
  @Field({ nullable: true })
  name?: string;

  @Field({ nullable: true })
  notes?: string;

  @Field({ nullable: true })
  status?: string;

  @Field({ nullable: true })
  campaignType?: string;

  @Field(() => String, { nullable: true })
  ownerUserId?: string | null;

  @Field(() => ID, { nullable: true })
  aiAgentId?: string | null;

  @Field(() => ID, { nullable: true })
  inboundPhoneNumberId?: string | null;

  @Field(() => ID, { nullable: true })
  outboundPhoneNumberId?: string | null;

  @Field(() => ID, { nullable: true })
  webhookId?: string | null;

  @Field(() => [String], { nullable: true })
  contactsListSource?: string[];

  @Field(() => [String], { nullable: true })
  contactsListTags?: string[];

  @Field(() => [String], { nullable: true })
  contactsListCategories?: string[];

  @Field(() => GraphQLJSONObject, { nullable: true })
  contactsListSourceMetadata?: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true })
  agentVariablesContactMetadataMapping?: Record<string, unknown>;

  @Field(() => Int, { nullable: true })
  callProgress?: number;

  @Field({ nullable: true, description: 'HH:MM:SS.' })
  callTimeOfDayFrom?: string;

  @Field({ nullable: true, description: 'HH:MM:SS.' })
  callTimeOfDayTo?: string;

  @Field(() => [Int], { nullable: true })
  numberOfCallAttempts?: number[];

  @Field(() => [Int], { nullable: true })
  retryDelay?: number[];

  @Field(() => [String], { nullable: true, description: 'seconds, minutes, hours or days, one per tier.' })
  retryDelayUnit?: string[];

  @Field(() => [Int], { nullable: true, description: '1 = Monday ... 7 = Sunday.' })
  daysOfWeek?: number[];

  @Field({ nullable: true, description: 'IANA time zone such as America/New_York.' })
  timeZone?: string;

  @Field({ nullable: true })
  allowNonLocalCalls?: boolean;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD.' })
  startedAt?: string | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD.' })
  endedAt?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  webhookMappingVariables?: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true })
  webhookMappingVariablesSources?: Record<string, unknown>;

  @Field(() => Int, { nullable: true })
  maxConcurrentCalls?: number;
}

@InputType('CreateCampaignInput')
export class CreateCampaignInput extends UpdateCampaignInput {
  @Field()
  override name!: string;

  @Field(() => String, { nullable: true, description: 'Defaults to "default".' })
  workspace?: string | null;
}
