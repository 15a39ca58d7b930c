import { z } from 'zod';
import { camelKeys } from '../shared/naming';
import { text } from '../shared/common.input';

/** Values for the `{{name}}` placeholders of the prompt, as a call's dynamic variables give them. */
export const dynamicVariablesInput = () =>
  z.array(z.strictObject({ name: z.string().regex(/^[\w.-]{1,100}$/, 'Must be 1 to 100 letters, digits, _, . or -'), value: text(10_000) })).max(200, 'At most 200 variables');

/** The fields of a turn, as REST documents them. */
const testChatFields = {
  messages: z.array(z.strictObject({ role: z.enum(['user', 'agent'], { error: 'Must be user or agent' }), content: text(10_000) })).max(100, 'At most 100 messages'),
  dynamic_variables: dynamicVariablesInput().default([]),
  state: text(200).nullish(),
};

/** `POST /v1/ai-agent/{id}/test-chat` (docs/agents.md, "Playground"): REST's documented body. */
export const testChatInput = z.strictObject(testChatFields);

/** A turn as the service validates it (GraphQL `testAgentTurn`, REST's body renamed at its edge). */
export const testChatWrite = z.strictObject(camelKeys(testChatFields));
export type TestChatInput = z.input<typeof testChatWrite>;
