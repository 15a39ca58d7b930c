import { randomUUID } from 'node:crypto';
import { HeaderMap } from '@apollo/server';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import type { Services } from '../services';
import { RateLimitedError, UnauthenticatedError } from '../services/errors';
import type { Caller, Scope } from '../services/scope';
import { addLogFields, type LogFields } from '../logger';
import { toGraphQLError } from './errors';
import { createLoaders, type Loaders } from './loaders';

/** What every resolver gets: who calls, their unit of work and its loaders. */
export interface GraphQLContext {
  requestId: string;
  caller: Caller;
  loaders: Loaders;
  /**
   * Starts a fresh unit of work (EntityManager fork and loaders) on this context and
   * answers its caller. A subscription's resolver calls it for each event, so that every
   * event reads current state, not what an earlier event left in the identity map.
   */
  renew(): Caller;
}

/** The tenancy ids of a caller, as log fields. */
export const logFieldsOf = (scope: Scope): LogFields => ({ company_id: scope.companyId, user_id: scope.userId });

/**
 * Builds resolver contexts the way the REST middleware builds its caller: the bearer
 * token through `AuthService.authenticate`, then one EntityManager fork per HTTP request
 * and per websocket operation.
 */
export class ContextFactory {
  constructor(
    private readonly orm: MikroORM,
    private readonly services: Services,
  ) {}

  /**
   * The scope of an `Authorization` header value (`Bearer sk_...` or `Bearer <jwt>`).
   * Bad credentials throw a GraphQL error with code UNAUTHENTICATED and HTTP status 401.
   */
  async authenticate(authorization: string | undefined, em: EntityManager = this.orm.em.fork()): Promise<Scope> {
    try {
      return await this.services.auth.authenticate(em, authorization);
    } catch (err) {
      if (err instanceof UnauthenticatedError) {
        throw new GraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
      }
      throw err;
    }
  }

  /**
   * Counts one request (an HTTP request, a websocket operation) of `scope` against its rate
   * limits. A used-up limit throws RATE_LIMITED, with HTTP status 429 and `Retry-After`
   * for an HTTP request, which is then refused whole.
   */
  async countRequest(scope: Scope): Promise<void> {
    try {
      await this.services.rateLimits.consume(scope, ['request']);
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      const { message, extensions } = toGraphQLError(err);
      const headers = new HeaderMap([['retry-after', String(err.retryAfterS)]]);
      throw new GraphQLError(message, { extensions: { ...extensions, http: { status: 429, headers } } });
    }
  }

  /**
   * The context of one HTTP request: its credentials checked in the request's own fork,
   * then its rate limits. The request's log lines carry the caller's ids from here on.
   */
  async forRequest(authorization: string | undefined, requestId: string): Promise<GraphQLContext> {
    const em = this.orm.em.fork();
    const scope = await this.authenticate(authorization, em);
    addLogFields(logFieldsOf(scope));
    await this.countRequest(scope);
    return this.forScope(scope, requestId, em);
  }

  /** A context for one operation of the caller whose scope is `scope`. */
  forScope(scope: Scope, requestId: string = randomUUID(), em: EntityManager = this.orm.em.fork()): GraphQLContext {
    const { orm, services } = this;
    const unitOfWork = (fork: EntityManager) => {
      const caller: Caller = { scope, em: fork };
      return { caller, loaders: createLoaders(caller, services) };
    };
    const context: GraphQLContext = {
      requestId,
      ...unitOfWork(em),
      renew: () => Object.assign(context, unitOfWork(orm.em.fork())).caller,
    };
    return context;
  }
}
