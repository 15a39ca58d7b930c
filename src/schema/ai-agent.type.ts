import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { AiAgent } from '../entities';

/** A conversational agent, or a template of the built-in catalogue (`isTemplate`). */
@ObjectType('AiAgent', { simpleResolvers: true })
export class AiAgentType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  description!: string;

  @Field()
  language!: string;

  @Field()
  status!: string;

  @Field()
  prompt!: string;

  @Field()
  startingState!: string;

  @Field()
  whoTalksFirst!: string;

  @Field(() => Int, { description: 'Seconds.' })
  reminderFrequencyFrom!: number;

  @Field(() => Int, { description: 'Seconds.' })
  reminderFrequencyTo!: number;

  @Field(() => Int, { description: 'Seconds.' })
  maxSilenceDuration!: number;

  @Field(() => Int, { description: '0-100.' })
  responsiveness!: number;

  @Field(() => Int, { description: '0-100.' })
  voiceSpeed!: number;

  @Field(() => Int, { description: '0-100.' })
  voiceTemperature!: number;

  @Field(() => Int, { description: '0-100.' })
  interruptionSensitivity!: number;

  @Field(() => Int, { description: '0-100, percent of the provider range.' })
  llmTemperature!: number;

  @Field()
  agentType!: string;

  @Field()
  backgroundAudioStatus!: string;

  @Field()
  workspaceId!: string;

  @Field()
  isTemplate!: boolean;

  @Field(() => GraphQLJSONObject)
  agentFlow!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject)
  agentDynamicVariables!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject)
  agentPostCallOutcomes!: Record<string, unknown>;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'Set when deleted; calls made with the agent still show it.' })
  deletedAt!: Date | null;
}

/** The one mapping from the agent entity to its GraphQL shape. */
export function toAiAgentType(a: AiAgent): AiAgentType {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    language: a.language,
    status: a.status,
    prompt: a.prompt,
    startingState: a.startingState,
    whoTalksFirst: a.whoTalksFirst,
    reminderFrequencyFrom: a.reminderFrequencyFrom,
    reminderFrequencyTo: a.reminderFrequencyTo,
    maxSilenceDuration: a.maxSilenceDuration,
    responsiveness: a.responsiveness,
    voiceSpeed: a.voiceSpeed,
    voiceTemperature: a.voiceTemperature,
    interruptionSensitivity: a.interruptionSensitivity,
    llmTemperature: a.llmTemperature,
    agentType: a.agentType,
    backgroundAudioStatus: a.backgroundAudioStatus,
    workspaceId: a.workspaceId,
    isTemplate: a.isTemplate,
    agentFlow: a.agentFlow,
    agentDynamicVariables: a.agentDynamicVariables,
    agentPostCallOutcomes: a.agentPostCallOutcomes,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    deletedAt: a.deletedAt,
  };
}
