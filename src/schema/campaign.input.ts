import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';

/** Partial update: fields left out stay as they were; a nullable field sent as null is cleared. */
@InputType('UpdateCampaignInput', { description: 'Partial update: fields left out stay as they were; a nullable field sent as null is cleared.' })
export class UpdateCampaignInput {
  @Field({ nullable: true, description: 'Name of the campaign.' })
  name?: string;

  @Field({ nullable: true, description: 'Free-form notes.' })
  notes?: string;

  @Field({ nullable: true, description: 'Draft, active (starts dialing), paused, completed, or any other text.' })
  status?: string;

  @Field({ nullable: true, description: 'Kind of campaign, free text (e.g. outbound).' })
  campaignType?: string;

  @Field(() => ID, { nullable: true, description: 'Id of the user who owns the campaign.' })
  ownerUserId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the AI agent.' })
  aiAgentId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the number inbound calls arrive on.' })
  inboundPhoneNumberId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the number the calls are made from.' })
  outboundPhoneNumberId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the webhook flow.' })
  webhookId?: string | null;

  @Field(() => [String], { nullable: true, description: 'Select contacts whose sourceName is one of these; empty selects all.' })
  contactsListSource?: string[];

  @Field(() => [String], { nullable: true, description: 'Select contacts whose tagName is one of these; empty selects all.' })
  contactsListTags?: string[];

  @Field(() => [String], { nullable: true, description: 'Select contacts whose categoryName is one of these; empty selects all.' })
  contactsListCategories?: string[];

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form data about the contact sources.' })
  contactsListSourceMetadata?: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Agent variable name to a path into the contact (firstname, metadata.plan).' })
  agentVariablesContactMetadataMapping?: Record<string, unknown>;

  @Field(() => Int, { nullable: true, description: 'Percent of the selected contacts settled.' })
  callProgress?: number;

  @Field({ nullable: true, description: 'HH:MM:SS.' })
  callTimeOfDayFrom?: string;

  @Field({ nullable: true, description: 'HH:MM:SS.' })
  callTimeOfDayTo?: string;

  @Field(() => [Int], { nullable: true, description: 'Attempts per retry tier.' })
  numberOfCallAttempts?: number[];

  @Field(() => [Int], { nullable: true, description: 'Delay before a retry, per tier.' })
  retryDelay?: number[];

  @Field(() => [String], { nullable: true, description: 'seconds, minutes, hours or days, one per tier.' })
  retryDelayUnit?: string[];

  @Field(() => [Int], { nullable: true, description: '1 = Monday ... 7 = Sunday.' })
  daysOfWeek?: number[];

  @Field({ nullable: true, description: 'IANA time zone such as America/New_York.' })
  timeZone?: string;

  @Field({ nullable: true, description: 'False skips contacts whose country code differs from the outbound number.' })
  allowNonLocalCalls?: boolean;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD.' })
  startedAt?: string | null;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD.' })
  endedAt?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Flow variable name to a path into a source record, for the flow run after each call.' })
  webhookMappingVariables?: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Sources the mapping reads: call, contact, campaign, agent_post_call_outcomes.' })
  webhookMappingVariablesSources?: Record<string, unknown>;

  @Field(() => Int, { nullable: true, description: 'Most calls of the campaign live at once, 1 to 1000.' })
  maxConcurrentCalls?: number;
}

@InputType('CreateCampaignInput', { description: 'A new campaign (status draft unless given); fields left out take their defaults.' })
export class CreateCampaignInput extends UpdateCampaignInput {
  @Field({ description: 'Name of the campaign.' })
  override name!: string;

  @Field(() => String, { nullable: true, description: 'Defaults to "default".' })
  workspace?: string | null;
}
