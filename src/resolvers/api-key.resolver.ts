import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { unboundedList } from '../graphql/limits';
import { ApiKeyType } from '../schema/api-key.type';
import type { AuthService } from '../services/auth/auth.service';

@Resolver(() => ApiKeyType)
export class ApiKeyResolver {
  constructor(private readonly authService: AuthService) {}

  @Query(() => [ApiKeyType], { complexity: unboundedList, description: "Your company's API keys, newest first, revoked ones too; never the keys themselves." })
  async apiKeys(@Ctx() { caller }: GraphQLContext): Promise<ApiKeyType[]> {
    return this.authService.listApiKeys(caller);
  }

  @Mutation(() => ApiKeyType, { description: 'Creates an API key of your company; the answer is the only one that carries the key (`secret`): only its hash is kept.' })
  async createApiKey(@Ctx() { caller }: GraphQLContext): Promise<ApiKeyType> {
    return this.authService.issueApiKey(caller);
  }

  @Mutation(() => ApiKeyType, {
    description: 'Revokes one of your API keys: it stops working within AUTH_TRUST_S seconds (at once on the replica that answers). NOT_FOUND when it has no live key with this id.',
  })
  async revokeApiKey(@Arg('id', () => ID, { description: 'Id of the key.' }) id: string, @Ctx() { caller }: GraphQLContext): Promise<ApiKeyType> {
    return this.authService.revokeApiKeyById(caller, id);
  }
}
