import { Field, InputType } from 'type-graphql';

@InputType('AddDoNotCallNumbersInput', { description: 'Numbers to put on the do-not-call list.' })
export class AddDoNotCallNumbersInput {
  @Field(() => [String], { description: '1 to 10,000 numbers, any format; stored in E.164.' })
  numbers!: string[];

  @Field(() => String, { nullable: true, description: 'Why the numbers are listed, free text.' })
  reason?: string | null;
}
