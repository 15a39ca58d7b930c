import { Field, ID, ObjectType } from 'type-graphql';
import type { PhoneNumber } from '../entities';

/** A number the company owns and may call from. */
@ObjectType('PhoneNumber', { simpleResolvers: true, description: 'A number your company owns and may call from.' })
export class PhoneNumberType {
  @Field(() => ID, { description: 'Unique id (UUID).' })
  id!: string;

  @Field({ description: 'E.164.' })
  phoneNumber!: string;

  @Field({ description: 'Country calling code, digits only (1 for +1).' })
  countryCode!: string;

  @Field({ description: 'A name for the number, free text.' })
  label!: string;

  @Field(() => ID, { nullable: true, description: 'The agent answering calls to this number; null: calls are rejected.' })
  inboundAgentId!: string | null;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
  updatedAt!: Date;
}

export function toPhoneNumberType(p: PhoneNumber): PhoneNumberType {
  return {
    id: p.id,
    phoneNumber: p.phoneNumber,
    countryCode: p.countryCode,
    label: p.label,
    inboundAgentId: p.inboundAgent?.id ?? null,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
