import { z } from 'zod';
import { camelKeys } from '../shared/naming';
import { described as d, namedObject } from '../shared/contract';
import { text } from '../shared/common.input';

/** Values for the `{{name}}` placeholders of the prompt, as a call's dynamic variables give them. */
export const dynamicVariablesInput = () =>
  z.array(z.strictObject({ name: z.string().regex(/^[\w.-]{1,100}$/, 'Must be 1 to 100 letters, digits, _, . or -'), value: text(10_000) })).max(200, 'At most 200 variables');

const testChatMessage = namedObject(
  z.strictObject({
    role: d(z.enum(['user', 'agent'], { error: 'Must be user or agent' }), '"user" or "agent".'),
    content: d(text(10_000), 'What was said.'),
  }),
  'TestChatMessageInput',
  'One message of the conversation so far.',
  { asText: ['role'] },
);

/** The fields of a turn, as REST documents them (GraphQL's `TestAgentTurnInput` derives from them). */
export const testChatFields = {
  messages: d(z.array(testChatMessage).max(100, 'At most 100 messages'), 'The conversation so far, oldest first.'),
  dynamic_variables: d(dynamicVariablesInput().default([]), "Fill the `{{name}}` placeholders of the prompt, as a call's dynamic variables do."),
  state: d(text(200).nullish(), 'The agent_flow state to answer in; default its starting_state.'),
};

/** `POST /v1/ai-agent/{id}/test-chat` (docs/agents.md, "Playground"): REST's documented body. */
export const testChatInput = z.strictObject(testChatFields);

/** A turn as the service validates it (GraphQL `testAgentTurn`, REST's body renamed at its edge). */
export const testChatWrite = z.strictObject(camelKeys(testChatFields));
export type TestChatInput = z.input<typeof testChatWrite>;
