import { stepRunContract, type StepRunView } from '../services/flows/flow-execution.contract';
import { contractObjectType } from './contract.type';
// Registers the GraphQL enums of the flow aggregate, which the contract's enum fields are typed with.
import './webhook.enum';

/** One step of one attempt of an execution, from its contract. */
export const WebhookStepRunType = contractObjectType(stepRunContract, {
  description: 'One step of one attempt of an execution: what was sent, what came back (excerpts, credentials redacted).',
});
export type WebhookStepRunType = StepRunView;
