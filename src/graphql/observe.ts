import type { ApolloServerPlugin } from '@apollo/server';
import type { OperationDefinitionNode } from 'graphql';
import type { LogFields } from '../logger';
import type { GraphQLOperationLabels, Metrics } from '../metrics';
import { type GraphQLContext, logFieldsOf } from './context';

/**
 * Name and type labels of an operation. Only a document that parsed and validated names
 * one: the name a client sends next to a broken document is not trusted as a label.
 */
export function operationLabels(operation: OperationDefinitionNode | null | undefined): Pick<GraphQLOperationLabels, 'operation' | 'type'> {
  if (!operation) return { operation: 'unknown', type: 'unknown' };
  return { operation: operation.name?.value ?? 'anonymous', type: operation.operation };
}

/** The log fields of a websocket operation: its request id and the caller's ids. */
export const operationLogFields = (context: GraphQLContext): LogFields => ({ request_id: context.requestId, ...logFieldsOf(context.caller.scope) });

/**
 * Latency of every GraphQL operation over HTTP. Requests refused before an operation runs
 * (bad credentials) have no operation: the HTTP histogram counts them under `/graphql`.
 */
export function metricsPlugin(metrics: Metrics): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operation, errors }) {
          const outcome = errors && errors.length > 0 ? 'error' : 'ok';
          metrics.observeGraphQL({ ...operationLabels(operation), outcome, transport: 'http' }, (performance.now() - started) / 1000);
        },
      };
    },
  };
}
