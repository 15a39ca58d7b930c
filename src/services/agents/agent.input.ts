import { z } from 'zod';
import { agentFields, agentWorkspaceFields } from './agent.contract';
import { camelKeys } from '../shared/naming';
import { listedWorkspace } from '../shared/common.input';

/** The fields the rules across fields read. */
interface AgentRules {
  reminderFrequencyFrom?: number;
  reminderFrequencyTo?: number;
  startingState?: string;
  agentFlow?: { states?: { name: string }[] };
}

const reminderOrder = (a: AgentRules) => a.reminderFrequencyFrom === undefined || a.reminderFrequencyTo === undefined || a.reminderFrequencyFrom <= a.reminderFrequencyTo;
const reminderIssue = { message: 'Must not be greater than reminderFrequencyTo', path: ['reminderFrequencyFrom'] };

/** A starting_state given with the states it must be one of (docs/agents.md). */
const knownStartingState = (a: AgentRules) => !a.startingState || !a.agentFlow?.states?.length || a.agentFlow.states.some((s) => s.name === a.startingState);
const startingStateIssue = { message: 'Must name one of agentFlow.states', path: ['startingState'] };

/** REST's documented bodies: the settings in snake_case (unknown fields refused). */
export const createAgentInput = z.strictObject(agentFields).partial().required({ name: true }).extend(agentWorkspaceFields);
export const updateAgentInput = z.strictObject({ ...agentFields, workspace: agentWorkspaceFields.workspace.optional() }).partial();

/**
 * Create and update as the service validates them: the same fields camelCased, as GraphQL's
 * inputs (derived from them) send them, REST's body renamed at its edge, and the entity names them.
 */
const camelAgentFields = camelKeys(agentFields);
export const createAgentWrite = z
  .strictObject(camelAgentFields)
  .partial()
  .required({ name: true })
  .extend(agentWorkspaceFields)
  .refine(reminderOrder, reminderIssue)
  .refine(knownStartingState, startingStateIssue);
export const updateAgentWrite = z
  .strictObject({ ...camelAgentFields, workspace: agentWorkspaceFields.workspace.optional() })
  .partial()
  .refine(reminderOrder, reminderIssue)
  .refine(knownStartingState, startingStateIssue);

/** What `AgentService.create`, `update` and `list` take (and validate). */
export type AgentCreateInput = z.input<typeof createAgentWrite>;
export type AgentUpdateInput = z.input<typeof updateAgentWrite>;

export const listAgentsInput = z.object({ workspace: listedWorkspace() });
export type AgentListInput = z.input<typeof listAgentsInput>;
