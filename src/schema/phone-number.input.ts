import { Field, InputType } from 'type-graphql';

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
}
