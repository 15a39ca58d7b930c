import { Field, ID, InputType } from 'type-graphql';

@InputType('DynamicVariableInput', { description: 'A variable handed to the agent for this call.' })
export class DynamicVariableInput {
  @Field({ description: 'No spaces.' })
  name!: string;

  @Field({ description: 'Value: not empty.' })
  value!: string;
}

/** make-call: a test call with one of the company's agents, from a number it owns. */
@InputType('MakeCallInput', { description: 'A test call (interface 4.1).' })
export class MakeCallInput {
  @Field(() => ID, { description: 'Id of the agent that makes the call (yours, or a template).' })
  aiAgentId!: string;

  @Field({ description: 'A number the company owns, in any format (normalised to E.164).' })
  callFrom!: string;

  @Field({ description: 'Any valid number, in any format (normalised to E.164).' })
  callTo!: string;

  @Field(() => [DynamicVariableInput], { nullable: true, description: 'Variables handed to the agent: name without spaces, value not empty.' })
  dynamicVariables?: DynamicVariableInput[] | null;

  @Field(() => String, { nullable: true, description: 'Defaults to "default".' })
  workspace?: string | null;
}

@InputType('SimulateInboundCallInput', { description: 'An incoming call to simulate: the simulated provider answers it as a person would.' })
export class SimulateInboundCallInput {
  @Field({ description: 'A number of your company; its agent (or its active inbound campaign) answers.' })
  to!: string;

  @Field({ description: 'The caller; matched against your contacts.' })
  from!: string;
}
