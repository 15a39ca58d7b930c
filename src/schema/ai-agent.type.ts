import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { AiAgent } from '../entities';
import { Node } from './node.type';

/** A conversational agent, or a template of the built-in catalogue (`isTemplate`). */
@ObjectType('AiAgent', { implements: Node, simpleResolvers: true, description: 'A conversational agent of your company, or a template of the built-in catalogue (`isTemplate`).' })
export class AiAgentType implements Node {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field({ description: 'Name of the agent.' })
  name!: string;

  @Field({ description: 'What the agent is for.' })
  description!: string;

  @Field({ description: 'Language the agent speaks (e.g. en-US).' })
  language!: string;

  @Field({ description: 'Status of the agent, free text (e.g. active).' })
  status!: string;

  @Field({ description: 'Instructions for the language model.' })
  prompt!: string;

  @Field({ description: 'State of the agent flow the conversation starts in.' })
  startingState!: string;

  @Field({ description: 'Who speaks first: the agent or the user.' })
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

  @Field({ description: 'Kind of agent, free text.' })
  agentType!: string;

  @Field({ description: 'Background audio setting, free text.' })
  backgroundAudioStatus!: string;

  @Field({ description: 'Workspace slug the record belongs to (`default` unless given).' })
  workspaceId!: string;

  @Field({ description: 'True for the built-in catalogue, readable by every company and changed by none.' })
  isTemplate!: boolean;

  @Field(() => GraphQLJSONObject, { description: 'The conversation flow of the agent (states and transitions).' })
  agentFlow!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'Variables the agent fills into its prompt.' })
  agentDynamicVariables!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'Outcomes the agent records after a call.' })
  agentPostCallOutcomes!: Record<string, unknown>;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
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
