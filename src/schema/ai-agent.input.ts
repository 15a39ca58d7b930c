import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';

/** Partial update of an agent; ranges are the service's (0-100 settings, seconds). */
@InputType('UpdateAiAgentInput')
export class UpdateAiAgentInput {
  @Field({ nullable: true })
  name?: string;

  @Field({ nullable: true })
  description?: string;

  @Field({ nullable: true })
  language?: string;

  @Field({ nullable: true })
  status?: string;

  @Field({ nullable: true })
  prompt?: string;

  @Field({ nullable: true })
  startingState?: string;

  @Field({ nullable: true })
  whoTalksFirst?: string;

  @Field(() => Int, { nullable: true })
  reminderFrequencyFrom?: number;

  @Field(() => Int, { nullable: true })
  reminderFrequencyTo?: number;

  @Field(() => Int, { nullable: true })
  maxSilenceDuration?: number;

  @Field(() => Int, { nullable: true })
  responsiveness?: number;

  @Field(() => Int, { nullable: true })
  voiceSpeed?: number;

  @Field(() => Int, { nullable: true })
  voiceTemperature?: number;

  @Field(() => Int, { nullable: true })
  interruptionSensitivity?: number;

  @Field(() => Int, { nullable: true })
  llmTemperature?: number;

  @Field({ nullable: true })
  agentType?: string;

  @Field({ nullable: true })
  backgroundAudioStatus?: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  agentFlow?: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true })
  agentDynamicVariables?: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true })
  agentPostCallOutcomes?: Record<string, unknown>;

  @Field(() => String, { nullable: true })
  workspace?: string | null;
}

@InputType('CreateAiAgentInput')
export class CreateAiAgentInput extends UpdateAiAgentInput {
  @Field()
  override name!: string;
}
