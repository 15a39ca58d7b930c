import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { unboundedList } from '../graphql/limits';
import { CreatePhoneNumberInput, UpdatePhoneNumberInput } from '../schema/phone-number.input';
import { PhoneNumberType } from '../schema/phone-number.type';
import type { PhoneNumberService } from '../services/phone-numbers/phone-number.service';
import type { PhoneNumberCreateInput, PhoneNumberUpdateInput } from '../services/phone-numbers/phone-number.input';

@Resolver(() => PhoneNumberType)
export class PhoneNumberResolver {
  constructor(private readonly phoneNumberService: PhoneNumberService) {}

  @Query(() => [PhoneNumberType], { complexity: unboundedList, description: 'The numbers your company owns and may call from.' })
  async phoneNumbers(@Ctx() { caller }: GraphQLContext): Promise<PhoneNumberType[]> {
    return this.phoneNumberService.list(caller);
  }

  @Mutation(() => PhoneNumberType, { description: 'Adds a number; CONFLICT when the company already has it or another company holds it (a number belongs to one company at a time).' })
  async createPhoneNumber(
    @Arg('input', () => CreatePhoneNumberInput, { description: 'The fields to write.' }) input: PhoneNumberCreateInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<PhoneNumberType> {
    return this.phoneNumberService.create(caller, input);
  }

  @Mutation(() => PhoneNumberType, { description: 'Changes the label or the agent answering the number (NOT_FOUND for an agent not of your company); the number itself is fixed.' })
  async updatePhoneNumber(
    @Arg('id', () => ID, { description: 'Id of the record.' }) id: string,
    @Arg('input', () => UpdatePhoneNumberInput, { description: 'The fields to write.' }) input: PhoneNumberUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<PhoneNumberType> {
    return this.phoneNumberService.update(caller, id, input);
  }

  @Mutation(() => ID, { description: 'Removes the number; answers the id.' })
  async deletePhoneNumber(@Arg('id', () => ID, { description: 'Id of the record.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    await this.phoneNumberService.delete(caller, id);
    return id;
  }
}
