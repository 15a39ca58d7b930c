import { executionContract, type ExecutionView } from '../services/flows/flow-execution.contract';
import { ConnectionType } from './connection.type';
import { contractObjectType } from './contract.type';
// Registers the GraphQL enums of the flow aggregate, which the contract's enum fields are typed with.
import './webhook.enum';

/** One run of a flow, across its attempts, from its contract. `steps` resolves on demand. */
export const WebhookExecutionType = contractObjectType(executionContract, { description: 'One run of a flow, across its attempts.' });
export type WebhookExecutionType = ExecutionView;

export const WebhookExecutionConnection = ConnectionType('WebhookExecution', WebhookExecutionType);
