import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';

@InputType('UpdateContactInput', { description: 'Partial update of a contact: fields left out stay as they were.' })
export class UpdateContactInput {
  @Field({ nullable: true, description: 'Any format; stored in E.164.' })
  phoneNumber?: string;

  @Field({ nullable: true, description: 'First name.' })
  firstname?: string;

  @Field({ nullable: true, description: 'Last name.' })
  lastname?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form data.' })
  metadata?: Record<string, unknown>;

  @Field({ nullable: true, description: 'Source list, free text (campaigns select contacts by it).' })
  sourceName?: string;

  @Field({ nullable: true, description: 'Tag, free text (campaigns select contacts by it).' })
  tagName?: string;

  @Field({ nullable: true, description: 'Category, free text (campaigns select contacts by it).' })
  categoryName?: string;

  @Field({ nullable: true, description: 'Free-form notes.' })
  notes?: string;

  @Field(() => ID, { nullable: true, description: 'Adds the contact to this campaign; null removes it.' })
  campaignId?: string | null;

  @Field({ nullable: true, description: 'Active or inactive.' })
  status?: string;
}

@InputType('CreateContactInput', { description: 'A new contact.' })
export class CreateContactInput extends UpdateContactInput {
  @Field({ description: 'Any format; stored in E.164.' })
  override phoneNumber!: string;
}
