import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { pageInput } from '../graphql/input';
import { perNode } from '../graphql/limits';
import { type Connection, connectionOf } from '../schema/connection.type';
import { AddDoNotCallNumbersInput } from '../schema/do-not-call.input';
import { DoNotCallNumberConnection, DoNotCallNumberType } from '../schema/do-not-call.type';
import { PageArgs } from '../schema/page.args';
import type { DoNotCallService } from '../services/do-not-call/do-not-call.service';
import type { DoNotCallAddInput } from '../services/do-not-call/do-not-call.input';

@Resolver(() => DoNotCallNumberType)
export class DoNotCallResolver {
  constructor(private readonly doNotCallService: DoNotCallService) {}

  @Query(() => DoNotCallNumberConnection, { complexity: perNode, description: "Your company's do-not-call list, newest first." })
  async doNotCallNumbers(@Args() { first, after }: PageArgs, @Ctx() { caller }: GraphQLContext): Promise<Connection<DoNotCallNumberType>> {
    return connectionOf({
      page: await this.doNotCallService.list(caller, pageInput(first, after)),
      node: (entry) => entry,
      count: () => this.doNotCallService.count(caller),
      after,
    });
  }

  @Mutation(() => [DoNotCallNumberType], {
    description: 'Lists numbers; a number already listed is kept as it was. Answers the entries for the numbers given. Errors name numbers by index (numbers[3]).',
  })
  async addDoNotCallNumbers(
    @Arg('input', () => AddDoNotCallNumbersInput, { description: 'The fields to write.' }) input: DoNotCallAddInput,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<DoNotCallNumberType[]> {
    return this.doNotCallService.add(caller, input);
  }

  @Mutation(() => String, { description: 'Takes a number (any format) off the list; answers it in E.164. NOT_FOUND when not listed.' })
  async removeDoNotCallNumber(@Arg('number', { description: 'The number, any format.' }) number: string, @Ctx() { caller }: GraphQLContext): Promise<string> {
    return (await this.doNotCallService.remove(caller, number)).phoneNumber;
  }
}
