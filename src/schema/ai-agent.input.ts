import { agentFields, agentWorkspaceFields } from '../services/agents/agent.contract';
import type { AgentCreateInput, AgentUpdateInput } from '../services/agents/agent.input';
import { contractInputType } from './contract.type';

export const UpdateAiAgentInput = contractInputType<AgentUpdateInput>('UpdateAiAgentInput', 'Partial update of an agent: fields left out stay as they were.', {
  ...agentFields,
  ...agentWorkspaceFields,
});

export const CreateAiAgentInput = contractInputType<AgentCreateInput>(
  'CreateAiAgentInput',
  'A new agent; fields left out take their defaults.',
  { ...agentFields, ...agentWorkspaceFields },
  { required: ['name'] },
);
