import { GraphQLJSON } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import type { TestTurn } from '../services/conversation/playground.service';
import { DynamicVariableInput } from './call.input';

@InputType('TestChatMessageInput')
export class TestChatMessageInput {
  @Field({ description: '"user" or "agent".' })
  role!: string;

  @Field()
  content!: string;
}

/** testAgentTurn: the agent's next turn for a conversation given in full (docs/agents.md, Playground). */
@InputType('TestAgentTurnInput')
export class TestAgentTurnInput {
  @Field(() => [TestChatMessageInput])
  messages!: TestChatMessageInput[];

  @Field(() => [DynamicVariableInput], { nullable: true })
  dynamicVariables?: DynamicVariableInput[] | null;

  @Field(() => String, { nullable: true, description: 'The agent_flow state to answer in; default its starting_state.' })
  state?: string | null;
}

@ObjectType('AgentToolCall')
export class AgentToolCallType {
  @Field()
  name!: string;

  @Field(() => GraphQLJSON, { description: 'The arguments, parsed (the raw text when not JSON).' })
  arguments!: unknown;
}

@ObjectType('AgentTurn')
export class AgentTurnType {
  @Field()
  reply!: string;

  @Field(() => [AgentToolCallType], { description: 'Reported, not run (except go_to_state).' })
  toolCalls!: AgentToolCallType[];

  @Field(() => String, { nullable: true, description: 'The state after the turn; null without states.' })
  state!: string | null;
}

export const toAgentTurnType = (turn: TestTurn): AgentTurnType => ({ reply: turn.reply, toolCalls: turn.toolCalls, state: turn.state });
