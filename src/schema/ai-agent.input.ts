import { agentFields, agentInputOverride, agentWorkspaceFields } from '../services/agents/agent.contract';
import { contractInputType } from './contract.type';

export const UpdateAiAgentInput = contractInputType(
  'UpdateAiAgentInput',
  'Partial update of an agent: fields left out stay as they were.',
  { ...agentFields, ...agentWorkspaceFields },
  agentInputOverride,
);

export const CreateAiAgentInput = contractInputType(
  'CreateAiAgentInput',
  'A new agent; fields left out take their defaults.',
  { ...agentFields, ...agentWorkspaceFields },
  { ...agentInputOverride, required: ['name'] },
);
