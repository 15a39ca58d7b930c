import { GraphQLJSON } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { TestTurn } from '../services/conversation/playground.service';
import { type TestChatInput, testChatFields } from '../services/conversation/playground.input';
import { DynamicVariableInput } from './call.input';
import { contractInputType } from './contract.type';

/** A turn as GraphQL sends it: variables left out or null. */
export type TestAgentTurnInput = Omit<TestChatInput, 'dynamicVariables'> & { dynamicVariables?: TestChatInput['dynamicVariables'] | null };

/** testAgentTurn: the agent's next turn for a conversation given in full (docs/agents.md, Playground), from the service's input. */
export const TestAgentTurnInput = contractInputType<TestAgentTurnInput>('TestAgentTurnInput', 'A conversation given in full, for the agent to answer.', testChatFields, {
  required: ['messages'],
  typedAs: { dynamic_variables: () => [DynamicVariableInput] },
});

@ObjectType('AgentToolCall', { description: 'A tool the agent asked for in its turn.' })
export class AgentToolCallType {
  @Field({ description: 'The tool: end_call, transfer_call, press_digits, do_not_call, go_to_state or a flow tool.' })
  name!: string;

  @Field(() => GraphQLJSON, { description: 'The arguments, parsed (the raw text when not JSON).' })
  arguments!: unknown;
}

@ObjectType('AgentTurn', { description: "The agent's next turn." })
export class AgentTurnType {
  @Field({ description: 'What the agent says.' })
  reply!: string;

  @Field(() => [AgentToolCallType], { description: 'Every tool the model called in the turn, in order (flow tools and go_to_state run; the others are reported).' })
  toolCalls!: AgentToolCallType[];

  @Field(() => String, { nullable: true, description: 'The state after the turn; null without states.' })
  state!: string | null;

  @Field(() => String, { nullable: true, description: 'How the call would end after this turn (agent_hangup, call_transfer, llm_error); null when it goes on.' })
  endReason!: string | null;

  @Field(() => String, { nullable: true, description: 'Why the language model failed, when it did; null otherwise.' })
  error!: string | null;
}

export const toAgentTurnType = (turn: TestTurn): AgentTurnType => ({ reply: turn.reply, toolCalls: turn.toolCalls, state: turn.state, endReason: turn.endReason, error: turn.error });
