import { Field, InputType } from 'type-graphql';
import { dynamicVariableInput, makeCallFields } from '../services/calls/call.contract';
import type { MakeCallInput as MakeCallServiceInput } from '../services/calls/call.input';
import { contractInputType, namedInputType, shapeOnly } from './contract.type';

export const DynamicVariableInput = namedInputType(dynamicVariableInput);

/** make-call: a test call with one of the company's agents, from a number it owns. */
export const MakeCallInput = contractInputType<MakeCallServiceInput>('MakeCallInput', 'A test call (interface 4.1).', makeCallFields(shapeOnly), {
  required: ['ai_agent_id', 'call_from', 'call_to'],
});

@InputType('SimulateInboundCallInput', { description: 'An incoming call to simulate: the simulated provider answers it as a person would.' })
export class SimulateInboundCallInput {
  @Field({ description: 'A number of your company; its agent (or its active inbound campaign) answers.' })
  to!: string;

  @Field({ description: 'The caller; matched against your contacts.' })
  from!: string;
}
