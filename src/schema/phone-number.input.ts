import { Field, ID, InputType } from 'type-graphql';

@InputType('CreatePhoneNumberInput')
export class CreatePhoneNumberInput {
  @Field({ description: 'Any format; stored in E.164.' })
  phoneNumber!: string;

  @Field({ nullable: true })
  label?: string;
}

@InputType('UpdatePhoneNumberInput')
export class UpdatePhoneNumberInput {
  @Field({ nullable: true })
  label?: string;

  @Field(() => ID, { nullable: true, description: 'The agent of your company that answers calls to this number; null: none. Left out: unchanged.' })
  inboundAgentId?: string | null;
}
