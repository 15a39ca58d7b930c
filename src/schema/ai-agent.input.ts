import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';

/** Partial update of an agent; ranges are the service's (0-100 settings, seconds). */
@InputType('UpdateAiAgentInput', { description: 'Partial update of an agent: fields left out stay as they were.' })
export class UpdateAiAgentInput {
  @Field({ nullable: true, description: 'Name of the agent.' })
  name?: string;

  @Field({ nullable: true, description: 'What the agent is for.' })
  description?: string;

  @Field({ nullable: true, description: 'Language the agent speaks (e.g. en-US).' })
  language?: string;

  @Field({ nullable: true, description: 'Status of the agent, free text (e.g. active).' })
  status?: string;

  @Field({ nullable: true, description: 'Instructions for the language model.' })
  prompt?: string;

  @Field({ nullable: true, description: 'State of the agent flow the conversation starts in.' })
  startingState?: string;

  @Field({ nullable: true, description: 'Who speaks first: the agent or the user.' })
  whoTalksFirst?: string;

  @Field(() => Int, { nullable: true, description: 'Seconds, 0 to 86400: shortest wait before a reminder.' })
  reminderFrequencyFrom?: number;

  @Field(() => Int, { nullable: true, description: 'Seconds, 0 to 86400: longest wait before a reminder.' })
  reminderFrequencyTo?: number;

  @Field(() => Int, { nullable: true, description: 'Seconds, 1 to 3600, of silence before the agent ends the call.' })
  maxSilenceDuration?: number;

  @Field(() => Int, { nullable: true, description: '0-100.' })
  responsiveness?: number;

  @Field(() => Int, { nullable: true, description: '0-100.' })
  voiceSpeed?: number;

  @Field(() => Int, { nullable: true, description: '0-100.' })
  voiceTemperature?: number;

  @Field(() => Int, { nullable: true, description: '0-100.' })
  interruptionSensitivity?: number;

  @Field(() => Int, { nullable: true, description: '0-100, percent of the provider range.' })
  llmTemperature?: number;

  @Field({ nullable: true, description: 'Kind of agent, free text.' })
  agentType?: string;

  @Field({ nullable: true, description: 'Background audio setting, free text.' })
  backgroundAudioStatus?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The conversation flow of the agent (states and transitions).' })
  agentFlow?: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Variables the agent fills into its prompt.' })
  agentDynamicVariables?: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Outcomes the agent records after a call.' })
  agentPostCallOutcomes?: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'Workspace slug (`default` when left out).' })
  workspace?: string | null;
}

@InputType('CreateAiAgentInput', { description: 'A new agent; fields left out take their defaults.' })
export class CreateAiAgentInput extends UpdateAiAgentInput {
  @Field({ description: 'Name of the agent.' })
  override name!: string;
}
