import { agentVersionContract, type AgentVersionView } from '../services/agents/agent-version.contract';
import { publishAgentInput } from '../services/agents/agent-version.input';
import { ConnectionType } from './connection.type';
import { contractInputType, contractObjectType } from './contract.type';

/** A published version of an agent: its number, note and every agent setting as published (docs/agents.md, "Versions"). */
export const AiAgentVersionType = contractObjectType(agentVersionContract, {
  description: "An immutable published version of an agent: its number, when and why it was published, and the agent's settings as they were then.",
});
export type AiAgentVersionType = AgentVersionView;

export const AiAgentVersionConnection = ConnectionType('AiAgentVersion', AiAgentVersionType);

export const PublishAiAgentInput = contractInputType(
  'PublishAiAgentInput',
  'What to publish: the draft (with an optional note), or an older version again (`fromVersion`, a rollback).',
  publishAgentInput.shape,
);
