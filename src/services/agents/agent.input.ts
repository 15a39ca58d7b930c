import { z } from 'zod';
import { agentFields, agentWorkspaceFields } from './agent.contract';
import { camelKeys } from '../shared/naming';
import { listedWorkspace } from '../shared/common.input';

/** The fields the rules across fields read, camelCase (a REST body's are renamed for them). */
interface AgentRules {
  reminderFrequencyFrom?: number;
  reminderFrequencyTo?: number;
  startingState?: string;
  agentFlow?: { states?: { name: string }[] };
}

const reminderOrder = (a: AgentRules) => a.reminderFrequencyFrom === undefined || a.reminderFrequencyTo === undefined || a.reminderFrequencyFrom <= a.reminderFrequencyTo;
const reminderIssue = (field: string) => ({ message: 'Must not be greater than reminder_frequency_to', path: [field] });

/** A starting_state given with the states it must be one of (docs/agents.md). */
const knownStartingState = (a: AgentRules) => !a.startingState || !a.agentFlow?.states?.length || a.agentFlow.states.some((s) => s.name === a.startingState);
const startingStateIssue = (field: string) => ({ message: 'Must name one of agent_flow.states', path: [field] });

export const createAgentInput = z
  .strictObject(agentFields)
  .partial()
  .required({ name: true })
  .extend(agentWorkspaceFields)
  .refine((a) => reminderOrder(camelKeys(a)), reminderIssue('reminder_frequency_from'))
  .refine((a) => knownStartingState(camelKeys(a)), startingStateIssue('starting_state'));

export const updateAgentInput = z
  .strictObject({ ...agentFields, workspace: agentWorkspaceFields.workspace.optional() })
  .partial()
  .refine((a) => reminderOrder(camelKeys(a)), reminderIssue('reminder_frequency_from'))
  .refine((a) => knownStartingState(camelKeys(a)), startingStateIssue('starting_state'));

/**
 * Create and update under both namings: the documented ones, and the same fields camelCased,
 * as GraphQL's inputs (derived from them) send them and the entity names them.
 */
const camelAgentFields = camelKeys(agentFields);
export const createAgentWrite = {
  snake_case: createAgentInput,
  camelCase: z
    .strictObject(camelAgentFields)
    .partial()
    .required({ name: true })
    .extend(agentWorkspaceFields)
    .refine(reminderOrder, reminderIssue('reminderFrequencyFrom'))
    .refine(knownStartingState, startingStateIssue('startingState')),
};
export const updateAgentWrite = {
  snake_case: updateAgentInput,
  camelCase: z
    .strictObject({ ...camelAgentFields, workspace: agentWorkspaceFields.workspace.optional() })
    .partial()
    .refine(reminderOrder, reminderIssue('reminderFrequencyFrom'))
    .refine(knownStartingState, startingStateIssue('startingState')),
};

export const listAgentsInput = z.object({ workspace: listedWorkspace() });
