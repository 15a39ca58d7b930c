import { stepContract, type WebhookStepView } from '../services/flows/flow.contract';
import { contractObjectType } from './contract.type';
// Registers the GraphQL enums of the flow aggregate, which the contract's enum fields are typed with.
import './webhook.enum';

/** One HTTP request of a flow, from its contract: run in `stepNumber` order after `dependsOnStep` succeeded. */
export const WebhookStepType = contractObjectType(stepContract, { description: 'One HTTP request of a flow.' });
export type WebhookStepType = WebhookStepView;
