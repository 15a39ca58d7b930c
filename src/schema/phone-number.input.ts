import { Field, ID, InputType } from 'type-graphql';

@InputType('CreatePhoneNumberInput', { description: 'A number your company owns, to call from.' })
export class CreatePhoneNumberInput {
  @Field({ description: 'Any format; stored in E.164.' })
  phoneNumber!: string;

  @Field({ nullable: true, description: 'A name for the number, free text.' })
  label?: string;
}

@InputType('UpdatePhoneNumberInput', { description: 'What may change on a phone number: its label.' })
export class UpdatePhoneNumberInput {
  @Field({ nullable: true, description: 'A name for the number, free text.' })
  label?: string;

  @Field(() => ID, { nullable: true, description: 'The agent of your company that answers calls to this number; null: none. Left out: unchanged.' })
  inboundAgentId?: string | null;
}
