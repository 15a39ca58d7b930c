import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Campaign } from '../entities';
import { ConnectionType } from './connection.type';

/** A calling job over a contact selection. `aiAgent` and `calls` resolve on demand. */
@ObjectType('Campaign', { simpleResolvers: true })
export class CampaignType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  notes!: string;

  @Field({ description: 'draft, active, paused, completed, or any status written through update.' })
  status!: string;

  @Field()
  campaignType!: string;

  @Field(() => Int, { description: 'Percent of the selected contacts settled.' })
  callProgress!: number;

  @Field(() => [Int], { description: '1 = Monday ... 7 = Sunday.' })
  daysOfWeek!: number[];

  @Field({ description: 'IANA time zone of the calling window.' })
  timeZone!: string;

  @Field()
  workspace!: string;

  @Field(() => [String])
  contactsListSource!: string[];

  @Field(() => [String])
  contactsListTags!: string[];

  @Field(() => [String])
  contactsListCategories!: string[];

  @Field(() => GraphQLJSONObject)
  contactsListSourceMetadata!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject)
  agentVariablesContactMetadataMapping!: Record<string, unknown>;

  @Field({ description: 'HH:MM:SS in the campaign time zone.' })
  callTimeOfDayFrom!: string;

  @Field({ description: 'HH:MM:SS in the campaign time zone.' })
  callTimeOfDayTo!: string;

  @Field(() => [Int])
  numberOfCallAttempts!: number[];

  @Field(() => [Int])
  retryDelay!: number[];

  @Field(() => [String])
  retryDelayUnit!: string[];

  @Field(() => String, { nullable: true, description: 'First calling date, YYYY-MM-DD.' })
  startedAt!: string | null;

  @Field(() => String, { nullable: true, description: 'Last calling date, YYYY-MM-DD.' })
  endedAt!: string | null;

  @Field(() => GraphQLJSONObject)
  webhookMappingVariables!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject)
  webhookMappingVariablesSources!: Record<string, unknown>;

  @Field(() => String, { nullable: true })
  ownerUserId!: string | null;

  @Field(() => ID, { nullable: true })
  aiAgentId!: string | null;

  @Field(() => ID, { nullable: true })
  inboundPhoneNumberId!: string | null;

  @Field(() => ID, { nullable: true })
  outboundPhoneNumberId!: string | null;

  @Field(() => ID, { nullable: true })
  webhookId!: string | null;

  @Field()
  allowNonLocalCalls!: boolean;

  @Field(() => Int)
  maxConcurrentCalls!: number;

  @Field()
  createdAt!: Date;

  @Field()
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
    workspace: c.workspace,
    contactsListSource: c.contactsListSource,
    contactsListTags: c.contactsListTags,
    contactsListCategories: c.contactsListCategories,
    contactsListSourceMetadata: c.contactsListSourceMetadata,
    agentVariablesContactMetadataMapping: c.agentVariablesContactMetadataMapping,
    callTimeOfDayFrom: c.callTimeOfDayFrom,
    callTimeOfDayTo: c.callTimeOfDayTo,
    numberOfCallAttempts: c.numberOfCallAttempts,
    retryDelay: c.retryDelay,
    retryDelayUnit: c.retryDelayUnit,
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
