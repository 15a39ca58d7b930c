import { callContract, type CallView } from '../services/calls/call.contract';
import { ConnectionType } from './connection.type';
import { contractObjectType } from './contract.type';
import { Node } from './node.type';
// Registers the GraphQL enums of the call aggregate, which the contract's enum fields are typed with.
import './call.enum';

/** A phone call, from its contract. `aiAgent`, `campaign` and `contact` resolve on demand. */
export const CallType = contractObjectType(callContract, {
  implements: Node,
  description: 'A phone call placed (or received) by an AI agent; `aiAgent`, `campaign` and `contact` resolve on demand.',
});
export type CallType = CallView;

export const CallConnection = ConnectionType('Call', CallType);
