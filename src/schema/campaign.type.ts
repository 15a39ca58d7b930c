import { GraphQLJSONObject, GraphQLLocalDate } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Campaign } from '../entities';
import { ConnectionType } from './connection.type';
import { RetryDelayUnit } from './webhook.enum';
import { Node } from './node.type';

/** A calling job over a contact selection. `aiAgent` and `calls` resolve on demand. */
@ObjectType('Campaign', { implements: Node, simpleResolvers: true, description: 'A scheduled, repeatable calling job over a selection of contacts.' })
export class CampaignType implements Node {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field({ description: 'Name of the campaign.' })
  name!: string;

  @Field({ description: 'Free-form notes.' })
  notes!: string;

  @Field({ description: 'Draft, active, paused, completed, or any status written through update.' })
  status!: string;

  @Field({ description: 'Kind of campaign, free text (e.g. outbound).' })
  campaignType!: string;

  @Field(() => Int, { description: 'Percent of the selected contacts settled.' })
  callProgress!: number;

  @Field(() => [Int], { description: '1 = Monday ... 7 = Sunday.' })
  daysOfWeek!: number[];

  @Field({ description: 'IANA time zone of the calling window.' })
  timeZone!: string;

  @Field({ description: 'Workspace slug of the campaign.' })
  workspaceId!: string;

  @Field(() => [String], { description: 'Select contacts whose sourceName is one of these; empty selects all.' })
  contactsListSource!: string[];

  @Field(() => [String], { description: 'Select contacts whose tagName is one of these; empty selects all.' })
  contactsListTags!: string[];

  @Field(() => [String], { description: 'Select contacts whose categoryName is one of these; empty selects all.' })
  contactsListCategories!: string[];

  @Field(() => GraphQLJSONObject, { description: 'Free-form data about the contact sources.' })
  contactsListSourceMetadata!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'Agent variable name to a path into the contact (firstname, metadata.plan).' })
  agentVariablesContactMetadataMapping!: Record<string, unknown>;

  @Field({ description: 'HH:MM:SS in the campaign time zone.' })
  callTimeOfDayFrom!: string;

  @Field({ description: 'HH:MM:SS in the campaign time zone.' })
  callTimeOfDayTo!: string;

  @Field(() => [Int], { description: 'Attempts per retry tier.' })
  numberOfCallAttempts!: number[];

  @Field(() => [Int], { description: 'Delay before a retry, per tier, in `retryDelayUnit`.' })
  retryDelay!: number[];

  @Field(() => [RetryDelayUnit], { description: 'Unit of `retryDelay`, per tier.' })
  retryDelayUnit!: RetryDelayUnit[];

  @Field(() => GraphQLLocalDate, { nullable: true, description: 'First calling date (YYYY-MM-DD) in the campaign time zone.' })
  startedAt!: string | null;

  @Field(() => GraphQLLocalDate, { nullable: true, description: 'Last calling date (YYYY-MM-DD) in the campaign time zone, included.' })
  endedAt!: string | null;

  @Field(() => GraphQLJSONObject, { description: 'Flow variable name to a path into a source record, for the flow run after each call.' })
  webhookMappingVariables!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'Sources the mapping reads: call, contact, campaign, agent_post_call_outcomes.' })
  webhookMappingVariablesSources!: Record<string, unknown>;

  @Field(() => ID, { nullable: true, description: 'Id of the user who owns the campaign.' })
  ownerUserId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the agent that makes the calls.' })
  aiAgentId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the number inbound calls arrive on.' })
  inboundPhoneNumberId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the number the calls are made from.' })
  outboundPhoneNumberId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the flow triggered after each call.' })
  webhookId!: string | null;

  @Field({ description: 'False skips contacts whose country code differs from the outbound number.' })
  allowNonLocalCalls!: boolean;

  @Field(() => Int, { description: 'Most calls of the campaign live at once, 1 to 1000.' })
  maxConcurrentCalls!: number;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'Set when deleted; a deleted campaign still shows through the calls that name it.' })
  deletedAt!: Date | null;
}

export const CampaignConnection = ConnectionType('Campaign', CampaignType);

/** The one mapping from the campaign entity to its GraphQL shape. */
export function toCampaignType(c: Campaign): CampaignType {
  return {
    id: c.id,
    name: c.name,
    notes: c.notes,
    status: c.status,
    campaignType: c.campaignType,
    callProgress: c.callProgress,
    daysOfWeek: c.daysOfWeek,
    timeZone: c.timeZone,
    workspaceId: c.workspace,
    contactsListSource: c.contactsListSource,
    contactsListTags: c.contactsListTags,
    contactsListCategories: c.contactsListCategories,
    contactsListSourceMetadata: c.contactsListSourceMetadata,
    agentVariablesContactMetadataMapping: c.agentVariablesContactMetadataMapping,
    callTimeOfDayFrom: c.callTimeOfDayFrom,
    callTimeOfDayTo: c.callTimeOfDayTo,
    numberOfCallAttempts: c.numberOfCallAttempts,
    retryDelay: c.retryDelay,
    retryDelayUnit: c.retryDelayUnit as RetryDelayUnit[],
    startedAt: c.startedAt,
    endedAt: c.endedAt,
    webhookMappingVariables: c.webhookMappingVariables,
    webhookMappingVariablesSources: c.webhookMappingVariablesSources,
    ownerUserId: c.ownerUserId,
    aiAgentId: c.aiAgent?.id ?? null,
    inboundPhoneNumberId: c.inboundPhoneNumber?.id ?? null,
    outboundPhoneNumberId: c.outboundPhoneNumber?.id ?? null,
    webhookId: c.webhook?.id ?? null,
    allowNonLocalCalls: c.allowNonLocalCalls,
    maxConcurrentCalls: c.maxConcurrentCalls,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    deletedAt: c.deletedAt,
  };
}
