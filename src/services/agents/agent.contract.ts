import { z } from 'zod';
import type { AiAgent } from '../../entities';
import { CALL_RECORDINGS, TRANSFER_MODES, VOICEMAIL_ACTIONS } from '../../entities/ai-agent.entity';
import { defineContract, described as d, field, keyedAsStored, type ViewOf, viewOf } from '../shared/contract';
import { camelKeys, type CamelKeys } from '../shared/naming';
import { agentFlowSchema } from '../conversation/agent-flow';
import { outcomeDefinitionsSchema } from '../conversation/analysis-schema';
import { httpsUrl, intBetween, jsonObject, requiredText, text, workspace } from '../shared/common.input';

const VOICEMAIL_ACTION = 'What the agent does when an answering machine answers: hangup (default), leave_message or continue (docs/agents.md).';
const VOICEMAIL_MESSAGE = 'Left on an answering machine under leave_message; {{variables}} are filled as in the prompt.';
const CALL_RECORDING = 'Whether calls are recorded: off (default), mono or dual (one channel per party).';
const OPENING_DISCLOSURE = 'Spoken first on every call and not interruptible (e.g. "This call is recorded."); empty: none.';
const WELCOME_GREETING = "Said as the agent's first turn when it talks first, instead of a generated greeting; {{variables}} are filled as in the prompt; null (default): the model greets.";
const TRANSFER_MODE = 'How transfer_call puts the caller through: cold (default: dialled at once) or warm (the person hears a summary first; nobody answering, the agent comes back).';
const HOLD_AUDIO_URL = 'An https URL of audio played to the caller while a warm transfer is prepared; null: none.';

const seconds = () => d(z.int(), 'Seconds.');
const percent = () => d(z.int(), '0-100.');

/**
 * A conversational agent, or a template of the built-in catalogue, as services return it
 * and every surface shows it: REST (interface 2.4, field for field, also the shape of agent
 * templates), /openapi.json and the GraphQL `AiAgent` type.
 */
export const agentContract = defineContract({
  name: 'AiAgent',
  view: z.object({
    id: d(field.id(), 'Unique id (UUID).'),
    name: d(z.string(), 'Name of the agent.'),
    description: d(z.string(), 'What the agent is for.'),
    language: d(z.string(), 'Language the agent speaks (e.g. en-US).'),
    status: d(z.string(), 'Status of the agent, free text (e.g. active).'),
    prompt: d(z.string(), 'Instructions for the language model.'),
    startingState: d(z.string(), 'State of the agent flow the conversation starts in.'),
    whoTalksFirst: d(z.string(), 'Who speaks first: the agent or the user.'),
    reminderFrequencyFrom: seconds(),
    reminderFrequencyTo: seconds(),
    maxSilenceDuration: seconds(),
    responsiveness: percent(),
    voiceSpeed: percent(),
    voiceTemperature: percent(),
    interruptionSensitivity: percent(),
    llmTemperature: d(z.int(), '0-100, percent of the provider range.'),
    agentType: d(z.string(), 'Kind of agent, free text.'),
    backgroundAudioStatus: d(z.string(), 'Background audio setting, free text.'),
    workspaceId: d(z.string(), 'Workspace slug the record belongs to (`default` unless given).'),
    isTemplate: d(z.boolean(), 'True for the built-in catalogue, readable by every company and changed by none.'),
    voicemailAction: d(z.enum(VOICEMAIL_ACTIONS), VOICEMAIL_ACTION),
    voicemailMessage: d(z.string(), VOICEMAIL_MESSAGE),
    callRecording: d(z.enum(CALL_RECORDINGS), CALL_RECORDING),
    openingDisclosure: d(z.string(), OPENING_DISCLOSURE),
    welcomeGreeting: d(z.string().nullable(), WELCOME_GREETING),
    transferMode: d(z.enum(TRANSFER_MODES), TRANSFER_MODE),
    holdAudioUrl: d(z.string().nullable(), HOLD_AUDIO_URL),
    agentFlow: d(field.json(), 'The conversation flow of the agent (states and transitions).'),
    agentDynamicVariables: d(field.json(), 'Variables the agent fills into its prompt.'),
    agentPostCallOutcomes: d(field.json(), 'Outcomes the agent records after a call.'),
    createdAt: d(z.date(), 'When the record was created.'),
    updatedAt: d(z.date(), 'When the record last changed.'),
    deletedAt: d(z.date().nullable(), 'Set when deleted; calls made with the agent still show it.'),
  }),
  // Interface 2.4 shows neither the template flag nor timestamps.
  rest: { omit: ['isTemplate', 'createdAt', 'updatedAt', 'deletedAt'] },
});

export type AgentView = ViewOf<typeof agentContract>;

/** The view of a stored agent. */
export const toAgentView = (agent: AiAgent): AgentView => viewOf(agentContract, agent);

const writePercent = () => d(intBetween(0, 100), '0-100.');

/**
 * Agent settings (interface 2.4) that create and update accept, in the documented
 * snake_case; ranges are the product's (docs/rest.md). REST validates its body with them as
 * sent, GraphQL's inputs are derived from them (camelCase), and both name the same fields in
 * validation errors.
 */
export const agentFields = {
  name: d(requiredText(200), 'Name of the agent.'),
  description: d(text(5000), 'What the agent is for.'),
  language: d(requiredText(35), 'Language the agent speaks (e.g. en-US).'),
  status: d(requiredText(50), 'Status of the agent, free text (e.g. active).'),
  prompt: d(text(100_000), 'Instructions for the language model.'),
  starting_state: d(text(200), 'State of the agent flow the conversation starts in.'),
  // `agent` or `user`; still a string in the contract (interface 2.4), checked here.
  who_talks_first: d(
    requiredText(50).refine((v) => v === 'agent' || v === 'user', 'Must be agent or user'),
    'Who speaks first: the agent or the user.',
  ),
  reminder_frequency_from: d(intBetween(0, 86_400), 'Seconds, 0 to 86400: shortest wait before a reminder.'),
  reminder_frequency_to: d(intBetween(0, 86_400), 'Seconds, 0 to 86400: longest wait before a reminder.'),
  max_silence_duration: d(intBetween(1, 3600), 'Seconds, 1 to 3600, of silence before the agent ends the call.'),
  responsiveness: writePercent(),
  voice_speed: writePercent(),
  voice_temperature: writePercent(),
  interruption_sensitivity: writePercent(),
  llm_temperature: d(intBetween(0, 100), '0-100, percent of the provider range.'),
  agent_type: d(requiredText(50), 'Kind of agent, free text.'),
  background_audio_status: d(requiredText(50), 'Background audio setting, free text.'),
  voicemail_action: d(z.enum(VOICEMAIL_ACTIONS, { error: `Must be one of ${VOICEMAIL_ACTIONS.join(', ')}` }), VOICEMAIL_ACTION),
  voicemail_message: d(text(2000), VOICEMAIL_MESSAGE),
  call_recording: d(z.enum(CALL_RECORDINGS, { error: `Must be one of ${CALL_RECORDINGS.join(', ')}` }), CALL_RECORDING),
  opening_disclosure: d(text(1000), OPENING_DISCLOSURE),
  welcome_greeting: d(text(1000).nullable(), WELCOME_GREETING),
  transfer_mode: d(z.enum(TRANSFER_MODES, { error: `Must be one of ${TRANSFER_MODES.join(', ')}` }), TRANSFER_MODE),
  hold_audio_url: d(httpsUrl(2000).nullable(), HOLD_AUDIO_URL),
  agent_flow: d(keyedAsStored(agentFlowSchema), 'The conversation flow of the agent (states and transitions).'),
  agent_dynamic_variables: d(jsonObject(), 'Variables the agent fills into its prompt.'),
  agent_post_call_outcomes: d(
    jsonObject().superRefine((value, ctx) => {
      for (const issue of outcomeDefinitionsSchema.safeParse(value).error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    }),
    'Outcomes the agent records after a call.',
  ),
};

/**
 * An agent's settings, camelCase: every field create and update write (`agentFields`), which
 * a published version snapshots and a call runs with (docs/agents.md, "Versions").
 */
export type AgentSettings = Pick<AiAgent, keyof CamelKeys<typeof agentFields>>;
export const AGENT_SETTINGS = Object.keys(camelKeys(agentFields)) as (keyof AgentSettings)[];

/** The workspace create and update accept beside the settings. */
export const agentWorkspaceFields = { workspace: d(workspace(), 'Workspace slug (`default` when left out).') };
