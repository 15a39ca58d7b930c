import { Field, ID, InputType } from 'type-graphql';

@InputType('DynamicVariableInput')
export class DynamicVariableInput {
  @Field({ description: 'No spaces.' })
  name!: string;

  @Field()
  value!: string;
}

/** make-call: a test call with one of the company's agents, from a number it owns. */
@InputType('MakeCallInput')
export class MakeCallInput {
  @Field(() => ID)
  aiAgentId!: string;

  @Field({ description: 'A number the company owns, in any format (normalised to E.164).' })
  callFrom!: string;

  @Field({ description: 'Any valid number, in any format (normalised to E.164).' })
  callTo!: string;

  @Field(() => [DynamicVariableInput], { nullable: true })
  dynamicVariables?: DynamicVariableInput[] | null;

  @Field(() => String, { nullable: true, description: 'Defaults to "default".' })
  workspace?: string | null;
}

@InputType('SimulateInboundCallInput')
export class SimulateInboundCallInput {
  @Field({ description: 'A number of your company; its agent (or its active inbound campaign) answers.' })
  to!: string;

  @Field({ description: 'The caller; matched against your contacts.' })
  from!: string;
}
