import { agentVersionContract } from '../services/agents/agent-version.contract';
import { restShape } from './contract-shape';

/** A published agent version: `{agent_id, version, published_at, note, ...agent fields}`, derived from its contract. */
const agentVersion = restShape(agentVersionContract);
export const agentVersionShape = agentVersion.schema;
export const serializeAgentVersion = agentVersion.serialize;
