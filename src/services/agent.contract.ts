import { z } from 'zod';
import type { AiAgent } from '../entities';
import { defineContract, described as d, field, type ViewOf, viewOf } from './contract';

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
