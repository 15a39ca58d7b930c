import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import type { Middleware } from 'koa';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { createResolvers } from '../resolvers';
import type { Services } from '../services';
import type { EventBus } from '../services/platform/events';
import { ContextFactory, type GraphQLContext, Resolvers } from './context';
import { formatError, isInternal, rootCause } from './errors';
import { graphqlMiddleware } from './koa';
import { checkComplexity, checkInputValues, extraRules, MAX_TOKENS } from './limits';
import { metricsPlugin } from './observe';
import type { UpgradeHandler } from '../upgrades';
import { graphqlSchema } from './schema';
import { graphqlWebSockets, type SocketLimits } from './ws';

/** HTTP and websocket endpoint of the GraphQL API. */
export const GRAPHQL_PATH = '/graphql';

export interface GraphQLOptions {
  orm: MikroORM;
  services: Services;
  events: EventBus;
  introspection: boolean;
  /** How often an open websocket's credential is checked again (AUTH_TRUST_S). */
  credentialCheckMs: number;
  /** Sockets per credential and subscriptions per socket. */
  socketLimits: SocketLimits;
  logger: Logger;
  metrics: Metrics;
}

export interface GraphQLGateway {
  /** Koa middleware for GRAPHQL_PATH (and the IDE's files); passes other paths on. */
  middleware: Middleware;
  /** Serves subscriptions (graphql-ws): the handshakes on GRAPHQL_PATH (src/upgrades.ts). */
  upgrade: UpgradeHandler;
  /** Closes every websocket, then stops Apollo. */
  stop(): Promise<void>;
}

/** Complexity check once variables are known, and logging of internal failures in full. */
function gatewayPlugin(schema: GraphQLSchema, logger: Logger): ApolloServerPlugin<GraphQLContext> {
  return {
    async contextCreationDidFail({ error }) {
      if (isInternal(error)) logger.error({ err: rootCause(error) }, 'graphql context creation failed');
    },
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request, operationName }) {
          checkInputValues(document, request.variables);
          checkComplexity(schema, document, request.variables, operationName);
        },
        async didEncounterErrors({ errors }) {
          for (const error of errors) {
            if (isInternal(error)) logger.error({ err: rootCause(error) }, 'graphql operation failed');
          }
        },
      };
    },
  };
}

/**
 * The GraphQL gateway over the services: Apollo Server for queries and mutations over
 * HTTP, graphql-ws for subscriptions, one schema, one context factory, the same limits.
 */
export async function createGraphQL({ orm, services, events, introspection, credentialCheckMs, socketLimits, logger, metrics }: GraphQLOptions): Promise<GraphQLGateway> {
  const schema = graphqlSchema();
  const contexts = new ContextFactory(orm, services, events, new Resolvers(createResolvers(services)));
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection,
    hideSchemaDetailsFromClientErrors: !introspection,
    includeStacktraceInErrorResponses: false,
    formatError,
    validationRules: extraRules(introspection),
    parseOptions: { maxLexicalTokens: MAX_TOKENS },
    // Cache hints are unused (responses are per caller); the plugin would wrap every field.
    plugins: [gatewayPlugin(schema, logger), metricsPlugin(metrics), ApolloServerPluginCacheControlDisabled()],
    logger,
    // The process's shutdown (src/main.ts) stops Apollo through stop() below. Apollo's own
    // SIGTERM handler would stop it first, and our stop() would then wait forever on
    // Apollo's stopping barrier (never released on success), so SIGTERM never ended the process.
    stopOnTerminationSignals: false,
  });
  await apollo.start();
  const sockets = graphqlWebSockets({ schema, contexts, introspection, credentialCheckMs, limits: socketLimits, logger, metrics });
  return {
    middleware: graphqlMiddleware(GRAPHQL_PATH, apollo, contexts),
    upgrade: sockets.upgrade,
    async stop() {
      await sockets.dispose();
      await apollo.stop();
    },
  };
}
