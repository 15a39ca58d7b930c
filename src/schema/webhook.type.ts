import { flowContract, type WebhookFlowView } from '../services/flows/flow.contract';
import { contractObjectType } from './contract.type';
import { Node } from './node.type';
// Registers the GraphQL enums of the flow aggregate, which the contract's enum fields are typed with.
import './webhook.enum';

/** An outbound webhook flow, from its contract. `steps` and `executions` resolve on demand. */
export const WebhookFlowType = contractObjectType(flowContract, {
  implements: Node,
  description: 'An outbound webhook flow: HTTP steps run in order, with retries and tracked executions.',
});
export type WebhookFlowType = WebhookFlowView;
