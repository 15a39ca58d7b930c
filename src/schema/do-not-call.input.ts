import { Field, InputType } from 'type-graphql';

@InputType('AddDoNotCallNumbersInput')
export class AddDoNotCallNumbersInput {
  @Field(() => [String], { description: '1 to 10,000 numbers, any format; stored in E.164.' })
  numbers!: string[];

  @Field(() => String, { nullable: true })
  reason?: string | null;
}
