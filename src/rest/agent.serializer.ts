import { agentContract } from '../services/agents/agent.contract';
import { restShape } from './contract-shape';

/** AI agent, interface 2.4 (also the shape of agent templates), derived from its contract. */
const agent = restShape(agentContract);
export const agentShape = agent.schema;
export const serializeAgent = agent.serialize;
