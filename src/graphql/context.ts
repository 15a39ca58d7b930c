import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { HeaderMap } from '@apollo/server';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import type { Services } from '../services';
import type { EventBus, Topics } from '../services/platform/events';
import type { AuthorizationValues, Credential } from '../services/auth/auth.service';
import { RateLimitedError, UnauthenticatedError } from '../services/shared/errors';
import type { Caller, Scope } from '../services/shared/scope';
import { requestOrigin } from '../http/client-address';
import { addLogFields, type LogFields } from '../logger';
import { toGraphQLError } from './errors';
import { createLoaders, type Loaders } from './loaders';
import { type DirectSink, eventStream } from './subscriptions';

/** A refusal by a request limit: RATE_LIMITED, refusing an HTTP request whole with 429 and `Retry-After`. */
function refusedRequest(err: RateLimitedError): GraphQLError {
  const { message, extensions } = toGraphQLError(err);
  const headers = new HeaderMap([['retry-after', String(err.retryAfterS)]]);
  return new GraphQLError(message, { extensions: { ...extensions, http: { status: 429, headers } } });
}

/**
 * The resolver objects of one service, by class: the container TypeGraphQL takes each
 * operation's resolvers from (through its context: one schema serves every service of a
 * process).
 */
export class Resolvers {
  private readonly byClass: Map<unknown, object>;

  constructor(resolvers: readonly object[]) {
    this.byClass = new Map(resolvers.map((r) => [r.constructor, r]));
  }

  get(someClass: { name: string }): object {
    const resolver = this.byClass.get(someClass);
    if (!resolver) throw new Error(`Resolver ${someClass.name} is not wired`);
    return resolver;
  }
}

/** What every resolver gets: who calls, their unit of work and its loaders. */
export interface GraphQLContext {
  requestId: string;
  /** This service's resolver objects. */
  resolvers: Resolvers;
  caller: Caller;
  loaders: Loaders;
  /**
   * A subscription's source: the events of `topic` of the caller's own company that `keep`
   * lets through (the subscription's filter arguments). Each kept event's read starts as
   * it arrives, not when this subscriber gets to it, so a subscriber behind the stream
   * gets each event's state as of that event, and the reads of its pending events overlap.
   */
  events<T extends SubscribedTopic>(topic: T, keep: (event: Topics[T]) => boolean): AsyncIterable<Topics[T]>;
  /**
   * Set by the websocket server before a subscription starts: where `events` hands each kept
   * event instead of yielding it (direct delivery, src/graphql/direct-delivery.ts).
   */
  direct?: DirectSink;
  /**
   * The read of one event given by `events`: the record's state, read once per event and
   * company in a fresh unit of work (EntityManager fork and loaders), shared by every
   * subscriber of that company; this context switches to that unit of work, so field
   * resolvers share its loaders too. Each event reads the state its transition stored (or
   * later), not what an earlier event left in an identity map, and 1,000 subscribers of a
   * company cost one read per event, not 1,000.
   */
  readForEvent<T extends SubscribedTopic>(topic: T, event: Topics[T]): ReturnType<EventReaders[T]>;
}

/** What a subscription delivers for an event of each topic it listens to: the record's state, read as the company. */
const eventReaders = (services: Services) => ({
  'call.updated': (caller: Caller, event: Topics['call.updated']) => services.calls.getForEvent(caller, event.callId),
  'webhook.execution.updated': (caller: Caller, event: Topics['webhook.execution.updated']) => services.executions.getById(caller, event.executionId),
  'agent.test-run.updated': (caller: Caller, event: Topics['agent.test-run.updated']) => services.testRuns.get(caller, event.runId),
});
type EventReaders = ReturnType<typeof eventReaders>;
export type SubscribedTopic = keyof EventReaders;

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
  private readonly readers: EventReaders;

  constructor(
    private readonly orm: MikroORM,
    private readonly services: Services,
    private readonly bus: EventBus,
    private readonly resolvers: Resolvers,
  ) {
    this.readers = eventReaders(services);
  }

  /**
   * The scope of the request's `Authorization` values (`Bearer sk_...` or `Bearer <jwt>`; two
   * values are ambiguous). Bad credentials throw a GraphQL error with code UNAUTHENTICATED and
   * HTTP status 401, counted against the client's address; an address over that limit is
   * refused with RATE_LIMITED (429) before its credentials are checked.
   */
  private async authenticate(req: http.IncomingMessage, em: () => EntityManager): Promise<Scope> {
    try {
      return await this.services.rateLimits.authenticating(requestOrigin(req), () => this.services.auth.authenticate(em, req.headersDistinct.authorization));
    } catch (err) {
      if (err instanceof UnauthenticatedError) {
        throw new GraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
      }
      if (err instanceof RateLimitedError) throw refusedRequest(err);
      throw err;
    }
  }

  /**
   * The credential of a websocket, at `connection_init` and at each re-check (`fresh`: past
   * the cache). Bad credentials throw the service's UnauthenticatedError: a socket answers
   * them by closing, not with a GraphQL error.
   */
  verify(authorization: AuthorizationValues, fresh = false): Promise<Credential> {
    return this.services.auth.verify(() => this.orm.em.fork(), authorization, { fresh });
  }

  /**
   * The credential of a websocket at `connection_init`, sent from the upgrade request `req`:
   * as `verify`, a failure counted against the client's address, and an address over that
   * limit refused (RateLimitedError) before its credential is checked.
   */
  verifyConnection(authorization: AuthorizationValues, req: http.IncomingMessage): Promise<Credential> {
    return this.services.rateLimits.authenticating(requestOrigin(req), () => this.verify(authorization));
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
      throw refusedRequest(err);
    }
  }

  /**
   * The context of one HTTP request: its credentials checked in the request's own fork,
   * then its rate limits. The request's log lines carry the caller's ids from here on.
   */
  async forRequest(req: http.IncomingMessage, requestId: string): Promise<GraphQLContext> {
    const em = this.unitOfWork();
    const scope = await this.authenticate(req, em);
    addLogFields(logFieldsOf(scope));
    await this.countRequest(scope);
    return this.forScope(scope, requestId, em);
  }

  /**
   * The EntityManager of one unit of work, forked when first asked for: a cached credential
   * and the hot reads (prepared statements on the reads' pool: a page of calls) need none,
   * and a fork (its identity map and unit of work) was 1.6% of the CPU of GraphQL's calls
   * page (docs/performance.md, "Volume").
   */
  private unitOfWork(): () => EntityManager {
    let em: EntityManager | undefined;
    return () => (em ??= this.orm.em.fork());
  }

  /** A context for one operation of the caller whose scope is `scope`; `em` gives its unit of work's EntityManager. */
  forScope(scope: Scope, requestId: string = randomUUID(), em: () => EntityManager = this.unitOfWork()): GraphQLContext {
    const caller: Caller = {
      scope,
      get em() {
        return em();
      },
    };
    const context: GraphQLContext = {
      requestId,
      resolvers: this.resolvers,
      caller,
      loaders: createLoaders(caller, this.services),
      events: (topic, keep) =>
        eventStream(
          this.bus,
          topic,
          (event) => event.companyId === scope.companyId && keep(event),
          (event) => this.eventRead(topic, event),
          context.direct,
        ),
      readForEvent: <T extends SubscribedTopic>(topic: T, event: Topics[T]) => {
        const shared = this.eventRead(topic, event);
        context.caller = shared.caller;
        context.loaders = shared.loaders;
        return shared.result as ReturnType<EventReaders[T]>;
      },
    };
    return context;
  }

  /**
   * The read of `event` for its company, started when the first subscriber of that company
   * on this replica receives it. It reads as the company (user id null): tenancy is per
   * company, and services scope reads by company.
   */
  private eventRead<T extends SubscribedTopic>(topic: T, event: Topics[T]): EventRead {
    const { companyId } = event;
    const byCompany = this.eventReads.get(event) ?? new Map<string, EventRead>();
    this.eventReads.set(event, byCompany);
    let shared = byCompany.get(companyId);
    if (!shared) {
      const caller: Caller = { scope: { companyId, userId: null }, em: this.orm.em.fork() };
      const read = this.readers[topic] as (caller: Caller, event: Topics[T]) => Promise<unknown>;
      shared = { caller, loaders: createLoaders(caller, this.services), result: read(caller, event) };
      // Each subscriber awaits the result; this copy only keeps an early failure from
      // being reported as unhandled before they do.
      shared.result.catch(() => undefined);
      byCompany.set(companyId, shared);
    }
    return shared;
  }
}
