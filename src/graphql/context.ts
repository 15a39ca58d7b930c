import { randomUUID } from 'node:crypto';
import { HeaderMap } from '@apollo/server';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import type { Services } from '../services';
import type { AuthorizationValues, Credential } from '../services/auth.service';
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
   * A subscription's read for one event: `read` runs once per event and company, in a
   * fresh unit of work (EntityManager fork and loaders), and every subscriber of that
   * company handling the same event gets its result; this context switches to that unit
   * of work, so field resolvers share its loaders too. Each event reads current state,
   * not what an earlier event left in an identity map, and 1,000 subscribers of a company
   * cost one read per event, not 1,000.
   */
  readForEvent<T>(event: object, read: (caller: Caller) => Promise<T>): Promise<T>;
}

/** One event's read for one company: its unit of work and the result it shares. */
interface EventRead {
  caller: Caller;
  loaders: Loaders;
  result: Promise<unknown>;
}

/** The tenancy ids of a caller, as log fields. */
export const logFieldsOf = (scope: Scope): LogFields => ({ company_id: scope.companyId, user_id: scope.userId });

/**
 * Builds resolver contexts the way the REST middleware builds its caller: the bearer
 * token through `AuthService.authenticate`, then one EntityManager fork per HTTP request
 * and per websocket operation.
 */
export class ContextFactory {
  /**
   * The reads of each event by company. Keyed by the event object itself: the bus decodes
   * a message once per replica and hands the same object to every subscriber, so an entry
   * lives only while some subscriber still holds the event, and two events never share one.
   */
  private readonly eventReads = new WeakMap<object, Map<string, EventRead>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly services: Services,
  ) {}

  /**
   * The scope of the `Authorization` values (`Bearer sk_...` or `Bearer <jwt>`; two values
   * are ambiguous). Bad credentials throw a GraphQL error with code UNAUTHENTICATED and
   * HTTP status 401.
   */
  async authenticate(authorization: AuthorizationValues, em: EntityManager = this.orm.em.fork()): Promise<Scope> {
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
   * The credential of a websocket, at `connection_init` and at each re-check (`fresh`: past
   * the cache). Bad credentials throw the service's UnauthenticatedError: a socket answers
   * them by closing, not with a GraphQL error.
   */
  verify(authorization: AuthorizationValues, fresh = false): Promise<Credential> {
    return this.services.auth.verify(this.orm.em.fork(), authorization, { fresh });
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
  async forRequest(authorization: AuthorizationValues, requestId: string): Promise<GraphQLContext> {
    const em = this.orm.em.fork();
    const scope = await this.authenticate(authorization, em);
    addLogFields(logFieldsOf(scope));
    await this.countRequest(scope);
    return this.forScope(scope, requestId, em);
  }

  /** A context for one operation of the caller whose scope is `scope`. */
  forScope(scope: Scope, requestId: string = randomUUID(), em: EntityManager = this.orm.em.fork()): GraphQLContext {
    const caller: Caller = { scope, em };
    const context: GraphQLContext = {
      requestId,
      caller,
      loaders: createLoaders(caller, this.services),
      readForEvent: <T>(event: object, read: (caller: Caller) => Promise<T>) => {
        const shared = this.eventRead(event, scope.companyId, read);
        context.caller = shared.caller;
        context.loaders = shared.loaders;
        return shared.result as Promise<T>;
      },
    };
    return context;
  }

  /**
   * The read of `event` for `companyId`, started by its first subscriber. It reads as the
   * company (user id null): tenancy is per company, and services scope reads by company.
   */
  private eventRead(event: object, companyId: string, read: (caller: Caller) => Promise<unknown>): EventRead {
    const byCompany = this.eventReads.get(event) ?? new Map<string, EventRead>();
    this.eventReads.set(event, byCompany);
    let shared = byCompany.get(companyId);
    if (!shared) {
      const caller: Caller = { scope: { companyId, userId: null }, em: this.orm.em.fork() };
      shared = { caller, loaders: createLoaders(caller, this.services), result: read(caller) };
      // Each subscriber awaits the result; this copy only keeps an early failure from
      // being reported as unhandled before they do.
      shared.result.catch(() => undefined);
      byCompany.set(companyId, shared);
    }
    return shared;
  }
}
