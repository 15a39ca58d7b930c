import { agentContract, type AgentView } from '../services/agents/agent.contract';
import { contractObjectType } from './contract.type';
import { Node } from './node.type';

/** A conversational agent, or a template of the built-in catalogue (`isTemplate`), from its contract. */
export const AiAgentType = contractObjectType(agentContract, {
  implements: Node,
  description: 'A conversational agent of your company, or a template of the built-in catalogue (`isTemplate`).',
});
export type AiAgentType = AgentView;
