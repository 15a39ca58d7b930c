import { z } from 'zod';
import { agentFlowSchema } from '../conversation/agent-flow';
import { intBetween, jsonObject, requiredText, text, workspace } from './common';

const percent = () => intBetween(0, 100);
const seconds = (max: number) => intBetween(0, max);

/** Agent settings (interface 2.4). Ranges are the product's: see docs/rest.md. */
const agentFields = {
  name: requiredText(200),
  description: text(5000),
  language: requiredText(35),
  status: requiredText(50),
  prompt: text(100_000),
  starting_state: text(200),
  who_talks_first: requiredText(50),
  reminder_frequency_from: seconds(86_400),
  reminder_frequency_to: seconds(86_400),
  max_silence_duration: intBetween(1, 3600),
  responsiveness: percent(),
  voice_speed: percent(),
  voice_temperature: percent(),
  interruption_sensitivity: percent(),
  llm_temperature: percent(),
  agent_type: requiredText(50),
  background_audio_status: requiredText(50),
  agent_flow: agentFlowSchema,
  agent_dynamic_variables: jsonObject(),
  agent_post_call_outcomes: jsonObject(),
};

const reminderOrder = (a: { reminder_frequency_from?: number; reminder_frequency_to?: number }) =>
  a.reminder_frequency_from === undefined || a.reminder_frequency_to === undefined || a.reminder_frequency_from <= a.reminder_frequency_to;
const reminderIssue = { message: 'Must not be greater than reminder_frequency_to', path: ['reminder_frequency_from'] };

/** A starting_state given with the states it must be one of (docs/agents.md). */
const knownStartingState = (a: { starting_state?: string; agent_flow?: { states?: { name: string }[] } }) =>
  !a.starting_state || !a.agent_flow?.states?.length || a.agent_flow.states.some((s) => s.name === a.starting_state);
const startingStateIssue = { message: 'Must name one of agent_flow.states', path: ['starting_state'] };

export const createAgentInput = z
  .strictObject(agentFields)
  .partial()
  .required({ name: true })
  .extend({ workspace: workspace() })
  .refine(reminderOrder, reminderIssue)
  .refine(knownStartingState, startingStateIssue);
export type CreateAgentInput = z.output<typeof createAgentInput>;

export const updateAgentInput = z
  .strictObject({ ...agentFields, workspace: workspace().optional() })
  .partial()
  .refine(reminderOrder, reminderIssue)
  .refine(knownStartingState, startingStateIssue);
export type UpdateAgentInput = z.output<typeof updateAgentInput>;

export const listAgentsInput = z.object({ workspace: workspace() });
