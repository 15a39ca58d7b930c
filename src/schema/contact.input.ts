import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';

@InputType('UpdateContactInput')
export class UpdateContactInput {
  @Field({ nullable: true, description: 'Any format; stored in E.164.' })
  phoneNumber?: string;

  @Field({ nullable: true })
  firstname?: string;

  @Field({ nullable: true })
  lastname?: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  metadata?: Record<string, unknown>;

  @Field({ nullable: true })
  sourceName?: string;

  @Field({ nullable: true })
  tagName?: string;

  @Field({ nullable: true })
  categoryName?: string;

  @Field({ nullable: true })
  notes?: string;

  @Field(() => ID, { nullable: true })
  campaignId?: string | null;

  @Field({ nullable: true })
  status?: string;
}

@InputType('CreateContactInput')
export class CreateContactInput extends UpdateContactInput {
  @Field({ description: 'Any format; stored in E.164.' })
  override phoneNumber!: string;
}
