import {
  createSourceEventStream,
  execute,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
  getOperationAST,
  GraphQLError,
  OperationTypeNode,
  type GraphQLSchema,
  parse,
  validate,
} from 'graphql';
import { type Disposable, makeServer, type OperationResult } from 'graphql-ws';
import type { Gauge } from 'prom-client';
import { WebSocketServer } from 'ws';
import { GRAPHQL_BODY_LIMIT } from '../http/json-body';
import { type LogFields, type Logger, withLogFields } from '../logger';
import type { UpgradeHandler } from '../upgrades';
import type { GraphQLOperationLabels, Metrics } from '../metrics';
import type { AuthorizationValues } from '../services/auth/auth.service';
import { UnauthenticatedError } from '../services/shared/errors';
import type { Scope } from '../services/shared/scope';
import type { ContextFactory, GraphQLContext } from './context';
import { DirectDelivery, SocketSubscription } from './direct-delivery';
import { formatErrors, isInternal, rootCause } from './errors';
import { mapAsyncIterable } from './map-async-iterable';
import { checkComplexity, checkInputValues, checkNesting, MAX_TOKENS, validationRules } from './limits';
import { operationLabels, operationLogFields } from './observe';
import { connectionAuthorization, CredentialWatches, forbid } from './ws-credentials';
import { refuseSocket, SubscriptionSlots } from './ws-limits';
import { type SocketExtra, serveSockets } from './ws-transport';

/** The limits of GraphQL websockets (docs/graphql.md, Limits). */
export interface SocketLimits {
  maxPerCredential: number;
  maxSubscriptionsPerSocket: number;
}

export interface WebSocketOptions {
  schema: GraphQLSchema;
  contexts: ContextFactory;
  introspection: boolean;
  /** How often an open socket's credential is checked again (AUTH_TRUST_S). */
  credentialCheckMs: number;
  /** Sockets per credential and subscriptions per socket (GRAPHQL_WS_MAX_*). */
  limits: SocketLimits;
  logger: Logger;
  metrics: Metrics;
}

type ConnectionExtra = SocketExtra & {
  scope?: Scope;
  /** What `connection_init` authenticated with, checked again before each operation. */
  authorization?: AuthorizationValues;
};

/** GraphQL's own parse and validation errors, with the code Apollo gives them on HTTP. */
const withCode = (errors: readonly GraphQLError[], code: string): GraphQLError[] =>
  errors.map(
    (e) =>
      new GraphQLError(e.message, {
        ...(e.nodes ? { nodes: e.nodes } : {}),
        ...(e.source ? { source: e.source } : {}),
        ...(e.positions ? { positions: e.positions } : {}),
        extensions: { ...e.extensions, code: e.extensions.code ?? code },
      }),
  );

/**
 * The parse, validation and cost checks of an HTTP operation, for a websocket one: the
 * same token, depth and complexity limits. Answers the execution arguments or the errors.
 */
function prepare(schema: GraphQLSchema, introspection: boolean, payload: { query: string; variables?: Record<string, unknown> | null; operationName?: string | null }) {
  let document;
  try {
    checkNesting(payload.query);
    document = parse(payload.query, { maxLexicalTokens: MAX_TOKENS });
  } catch (err) {
    return withCode([err as GraphQLError], 'GRAPHQL_PARSE_FAILED');
  }
  const invalid = validate(schema, document, validationRules(introspection));
  if (invalid.length > 0) return withCode(invalid, 'GRAPHQL_VALIDATION_FAILED');
  try {
    checkInputValues(document, payload.variables ?? undefined);
    checkComplexity(schema, document, payload.variables ?? undefined, payload.operationName);
  } catch (err) {
    return [err as GraphQLError];
  }
  return { schema, document, variableValues: payload.variables, operationName: payload.operationName } satisfies ExecutionArgs;
}

/**
 * Runs one websocket operation (execute, or subscribe for subscriptions) with its log
 * fields, records its latency (a subscription's: the time to start) and writes its access
 * line.
 */
function observed(metrics: Metrics, logger: Logger, run: (args: ExecutionArgs) => OperationResult) {
  return async (args: ExecutionArgs): Promise<Awaited<OperationResult>> => {
    const fields = operationLogFields(args.contextValue as GraphQLContext);
    const started = performance.now();
    const result = await withLogFields(fields, () => run(args));
    const labels: GraphQLOperationLabels = {
      ...operationLabels(getOperationAST(args.document, args.operationName)),
      outcome: Symbol.asyncIterator in result || !result.errors ? 'ok' : 'error',
      transport: 'ws',
    };
    const seconds = (performance.now() - started) / 1000;
    metrics.observeGraphQL(labels, seconds);
    withLogFields(fields, () => logger.info({ ...labels, ms: Math.round(seconds * 1000) }, 'graphql websocket operation'));
    return result;
  };
}

/** Logs the errors of a result that are internal (a bug, a failed dependency), not the caller's. */
function logInternal(logger: Logger, errors: readonly GraphQLError[]): void {
  for (const error of errors) if (isInternal(error)) logger.error({ err: rootCause(error) }, 'graphql websocket operation failed');
}

/** A result as its `next` message carries it: errors logged (with `fields`) when internal, and formatted as over HTTP. */
function formatted(result: ExecutionResult, fields: LogFields, logger: Logger): ExecutionResult | FormattedExecutionResult {
  if (!result.errors) return result;
  withLogFields(fields, () => logInternal(logger, result.errors!));
  return { ...result, errors: formatErrors(result.errors) };
}

/**
 * graphql-js's `subscribe`, with each event delivered directly (DirectDelivery): subscribers
 * of one company running the same operation (text, operation name, variables; `keys` holds it
 * per context) get one execution and one encoding per event, and each socket its `next`
 * message (`subscriptions` holds each context's SocketSubscription). The source stream stays
 * per subscriber, and with it the company filter and the subscription's filter arguments; it
 * hands its events over (`GraphQLContext.direct`) and its iterator, which graphql-ws awaits,
 * only ends. A shared execution logs with its company's fields, not one subscriber's; errors
 * in its result are logged once and formatted as over HTTP. `active` counts each stream from
 * its start until it ends, fails or is stopped.
 */
function sharedSubscribe(keys: WeakMap<object, string>, subscriptions: WeakMap<object, SocketSubscription>, slots: WeakMap<object, () => void>, active: Gauge, logger: Logger) {
  const delivery = new DirectDelivery(logger);
  return async (args: ExecutionArgs) => {
    const context = args.contextValue as GraphQLContext;
    const key = keys.get(context)!;
    const subscription = subscriptions.get(context)!;
    const release = slots.get(context)!;
    const fields = { company_id: context.caller.scope.companyId };
    context.direct = (event, record) =>
      delivery.deliver(
        key,
        event,
        record,
        subscription,
        () => withLogFields(fields, () => execute({ ...args, rootValue: event })),
        (result) => JSON.stringify(formatted(result, fields, logger)),
      );
    const stream = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in stream)) {
      release();
      return stream;
    }
    active.inc();
    // The stream yields nothing (its events go to `direct`): it is mapped for its end only.
    return mapAsyncIterable(
      stream as AsyncIterable<object>,
      (event) => event,
      () => {
        subscription.end();
        release();
        active.dec();
      },
    );
  };
}

/**
 * graphql-ws (`graphql-transport-ws`), for the handshakes `upgrade` is given (GraphQL's
 * path on the HTTP server, src/upgrades.ts). `connection_init` carries
 * `{"authorization": "Bearer ..."}` (or `Authorization`, not both), checked as HTTP
 * does; bad credentials close the socket with 4403 Forbidden, as does a client address over
 * its failed-authentication limit (counted as over HTTP). The credential is checked
 * again before each operation (as an HTTP request's is) and while the socket is open
 * (`CredentialWatches`, once per credential and replica): once it expires or is revoked,
 * the socket closes with 4403 and no operation of it runs. Each operation counts against
 * the caller's rate limits, as one HTTP request does, and gets its own context (scope +
 * EntityManager fork); results are formatted as over HTTP.
 */
export function graphqlWebSockets({ schema, contexts, introspection, credentialCheckMs, limits, logger, metrics }: WebSocketOptions): Disposable & { upgrade: UpgradeHandler } {
  // A message as large as an HTTP request may be; a larger one closes the socket (1009).
  const wss = new WebSocketServer({ noServer: true, maxPayload: GRAPHQL_BODY_LIMIT });
  wss.on('connection', (socket) => {
    metrics.websocketConnections.inc();
    socket.once('close', () => metrics.websocketConnections.dec());
  });
  const operationKeys = new WeakMap<object, string>();
  const subscriptions = new WeakMap<object, SocketSubscription>();
  const subscriptionSlots = new SubscriptionSlots(limits.maxSubscriptionsPerSocket);
  const slots = new WeakMap<object, () => void>();
  const watches = new CredentialWatches({
    check: (authorization) => contexts.verify(authorization, true),
    everyMs: credentialCheckMs,
    maxSockets: limits.maxPerCredential,
    logger,
  });
  const server = makeServer<Record<string, unknown>, ConnectionExtra>({
    schema,
    execute: observed(metrics, logger, execute),
    subscribe: observed(metrics, logger, sharedSubscribe(operationKeys, subscriptions, slots, metrics.activeSubscriptions, logger)),
    onConnect: async (ctx) => {
      const authorization = connectionAuthorization(ctx.connectionParams);
      try {
        const credential = await contexts.verifyConnection(authorization, ctx.extra.request);
        Object.assign(ctx.extra, { scope: credential.scope, authorization });
        if (watches.add(ctx.extra.socket, authorization, credential)) return true;
        // Closed with our code first: graphql-ws's own close (4403) for `false` then finds it closing.
        refuseSocket(ctx.extra.socket);
        return false;
      } catch (err) {
        if (isInternal(err)) logger.error({ err }, 'graphql websocket authentication failed');
        return false;
      }
    },
    onSubscribe: async (ctx, id, payload) => {
      const started = performance.now();
      try {
        await contexts.verify(ctx.extra.authorization);
      } catch (err) {
        if (!(err instanceof UnauthenticatedError)) throw err;
        forbid(ctx.extra.socket);
        return [new GraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED' } })];
      }
      try {
        await contexts.countRequest(ctx.extra.scope!);
      } catch (err) {
        if (err instanceof GraphQLError) return [err];
        throw err;
      }
      const prepared = prepare(schema, introspection, payload);
      if (Array.isArray(prepared)) {
        metrics.observeGraphQL({ ...operationLabels(null), outcome: 'error', transport: 'ws' }, (performance.now() - started) / 1000);
        return prepared;
      }
      const contextValue: GraphQLContext = contexts.forScope(ctx.extra.scope!);
      if (getOperationAST(prepared.document, prepared.operationName)?.operation === OperationTypeNode.SUBSCRIPTION) {
        const slot = subscriptionSlots.take(ctx.extra.socket);
        if (slot instanceof GraphQLError) return [slot];
        slots.set(contextValue, slot);
      }
      const { query, operationName, variables } = payload;
      operationKeys.set(contextValue, JSON.stringify([ctx.extra.scope!.companyId, query, operationName ?? null, variables ?? null]));
      subscriptions.set(contextValue, new SocketSubscription(ctx.extra.socket, id));
      return { ...prepared, contextValue };
    },
    onNext: (_ctx, _id, _payload, args, result) => formatted(result, operationLogFields(args.contextValue as GraphQLContext), logger),
    onError: (_ctx, _id, _payload, errors) => {
      logInternal(logger, errors);
      return formatErrors(errors);
    },
  });
  return serveSockets(server, wss, (socket, request) => ({ socket, request }), logger);
}
