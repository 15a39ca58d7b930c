import { z } from 'zod';
import type { AiAgent } from '../../entities';
import { CALL_RECORDINGS, TRANSFER_MODES, VOICEMAIL_ACTIONS } from '../../entities/ai-agent.entity';
import { declareFields, defineContract, field, keyedAsStored, readOnly, readWrite, type ViewOf, viewOf } from '../shared/contract';
import { camelKeys, type CamelKeys } from '../shared/naming';
import { agentFlowSchema } from '../conversation/agent-flow';
import { outcomeDefinitionsSchema } from '../conversation/analysis-schema';
import { httpsUrl, intBetween, jsonObject, requiredText, text, workspace } from '../shared/common.input';

const percent = () => readWrite('0-100.', z.int(), intBetween(0, 100));
const text50 = (description: string) => readWrite(description, z.string(), requiredText(50));

/**
 * A conversational agent, or a template of the built-in catalogue, each field declared once:
 * how services return it and every surface shows it (REST, interface 2.4, field for field,
 * also the shape of agent templates; /openapi.json; the GraphQL `AiAgent` type), and the
 * settings create and update accept; ranges are the product's (docs/rest.md).
 */
const agent = declareFields({
  id: readOnly('Unique id (UUID).', field.id()),
  name: readWrite('Name of the agent.', z.string(), requiredText(200)),
  description: readWrite('What the agent is for.', z.string(), text(5000)),
  language: readWrite('Language the agent speaks (e.g. en-US).', z.string(), requiredText(35)),
  status: text50('Status of the agent, free text (e.g. active).'),
  prompt: readWrite('Instructions for the language model.', z.string(), text(100_000)),
  startingState: readWrite('State of the agent flow the conversation starts in.', z.string(), text(200)),
  // `agent` or `user`; still a string in the contract (interface 2.4), checked here.
  whoTalksFirst: readWrite(
    'Who speaks first: the agent or the user.',
    z.string(),
    requiredText(50).refine((v) => v === 'agent' || v === 'user', 'Must be agent or user'),
  ),
  reminderFrequencyFrom: readWrite('Seconds.', z.int(), intBetween(0, 86_400), { writes: 'Seconds, 0 to 86400: shortest wait before a reminder.' }),
  reminderFrequencyTo: readWrite('Seconds.', z.int(), intBetween(0, 86_400), { writes: 'Seconds, 0 to 86400: longest wait before a reminder.' }),
  maxSilenceDuration: readWrite('Seconds.', z.int(), intBetween(1, 3600), { writes: 'Seconds, 1 to 3600, of silence before the agent ends the call.' }),
  responsiveness: percent(),
  voiceSpeed: percent(),
  voiceTemperature: percent(),
  interruptionSensitivity: percent(),
  llmTemperature: readWrite('0-100, percent of the provider range.', z.int(), intBetween(0, 100)),
  agentType: text50('Kind of agent, free text.'),
  backgroundAudioStatus: text50('Background audio setting, free text.'),
  workspaceId: readWrite('Workspace slug the record belongs to (`default` unless given).', z.string(), workspace(), {
    writes: 'Workspace slug (`default` when left out).',
    writtenAs: 'workspace',
  }),
  isTemplate: readOnly('True for the built-in catalogue, readable by every company and changed by none.', z.boolean()),
  voicemailAction: readWrite(
    'What the agent does when an answering machine answers: hangup (default), leave_message or continue (docs/agents.md).',
    z.enum(VOICEMAIL_ACTIONS),
    z.enum(VOICEMAIL_ACTIONS, { error: `Must be one of ${VOICEMAIL_ACTIONS.join(', ')}` }),
  ),
  voicemailMessage: readWrite('Left on an answering machine under leave_message; {{variables}} are filled as in the prompt.', z.string(), text(2000)),
  callRecording: readWrite(
    'Whether calls are recorded: off (default), mono or dual (one channel per party).',
    z.enum(CALL_RECORDINGS),
    z.enum(CALL_RECORDINGS, { error: `Must be one of ${CALL_RECORDINGS.join(', ')}` }),
  ),
  openingDisclosure: readWrite('Spoken first on every call and not interruptible (e.g. "This call is recorded."); empty: none.', z.string(), text(1000)),
  welcomeGreeting: readWrite(
    "Said as the agent's first turn when it talks first, instead of a generated greeting; {{variables}} are filled as in the prompt; null (default): the model greets.",
    z.string().nullable(),
    text(1000).nullable(),
  ),
  transferMode: readWrite(
    'How transfer_call puts the caller through: cold (default: dialled at once) or warm (the person hears a summary first; nobody answering, the agent comes back).',
    z.enum(TRANSFER_MODES),
    z.enum(TRANSFER_MODES, { error: `Must be one of ${TRANSFER_MODES.join(', ')}` }),
  ),
  holdAudioUrl: readWrite('An https URL of audio played to the caller while a warm transfer is prepared; null: none.', z.string().nullable(), httpsUrl(2000).nullable()),
  agentFlow: readWrite('The conversation flow of the agent (states and transitions).', field.json(), keyedAsStored(agentFlowSchema)),
  agentDynamicVariables: readWrite('Variables the agent fills into its prompt.', field.json(), jsonObject()),
  agentPostCallOutcomes: readWrite(
    'Outcomes the agent records after a call.',
    field.json(),
    jsonObject().superRefine((value, ctx) => {
      for (const issue of outcomeDefinitionsSchema.safeParse(value).error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    }),
  ),
  createdAt: readOnly('When the record was created.', z.date()),
  updatedAt: readOnly('When the record last changed.', z.date()),
  deletedAt: readOnly('Set when deleted; calls made with the agent still show it.', z.date().nullable()),
});

export const agentContract = defineContract({
  name: 'AiAgent',
  view: agent.view,
  // Interface 2.4 shows neither the template flag nor timestamps.
  rest: { omit: ['isTemplate', 'createdAt', 'updatedAt', 'deletedAt'] },
});

export type AgentView = ViewOf<typeof agentContract>;

/** The view of a stored agent. */
export const toAgentView = (agent: AiAgent): AgentView => viewOf(agentContract, agent);

const { workspace: agentWorkspace, ...agentSettingFields } = agent.write();

/**
 * Agent settings (interface 2.4) that create and update accept, in the documented
 * snake_case: REST validates its body with them as sent, GraphQL's inputs are derived from
 * them (camelCase), and both name the same fields in validation errors.
 */
export const agentFields = agentSettingFields;

/**
 * An agent's settings, camelCase: every field create and update write (`agentFields`), which
 * a published version snapshots and a call runs with (docs/agents.md, "Versions").
 */
export type AgentSettings = Pick<AiAgent, keyof CamelKeys<typeof agentFields>>;
export const AGENT_SETTINGS = Object.keys(camelKeys(agentFields)) as (keyof AgentSettings)[];

/** The workspace create and update accept beside the settings. */
export const agentWorkspaceFields = { workspace: agentWorkspace };
