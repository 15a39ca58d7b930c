import { dynamicVariableInput, makeCallFields } from '../services/calls/call.contract';
import { type MakeCallInput as MakeCallServiceInput, type SimulateInboundInput, simulateInboundInput } from '../services/calls/call.input';
import { contractInputType, namedInputType, shapeOnly } from './contract.type';

export const DynamicVariableInput = namedInputType(dynamicVariableInput);

/** make-call: a test call with one of the company's agents, from a number it owns. */
export const MakeCallInput = contractInputType<MakeCallServiceInput>('MakeCallInput', 'A test call (interface 4.1).', makeCallFields(shapeOnly), {
  required: ['ai_agent_id', 'call_from', 'call_to'],
});

/** simulateInboundCall: the numbers of an incoming call, from the service's input. */
export const SimulateInboundCallInput = contractInputType<SimulateInboundInput>(
  'SimulateInboundCallInput',
  'An incoming call to simulate: the simulated provider answers it as a person would.',
  simulateInboundInput(shapeOnly).shape,
  { required: ['to', 'from'] },
);
