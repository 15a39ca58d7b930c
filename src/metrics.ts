import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CALL_STATUSES, LIVE_STATUSES } from './entities/call.entity';
import { EXECUTION_STATUSES } from './entities/webhook-execution.entity';
import type { SystemState } from './services/platform/system-state.service';

const PREFIX = 'switchboard_';

/** Route label of requests no route matched (so raw paths never become label values). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Distinct GraphQL operation names kept as label values; later ones are counted as `other`. */
const MAX_OPERATION_NAMES = 200;

export type GraphQLTransport = 'http' | 'ws';

export interface GraphQLOperationLabels {
  /** The operation's name, `anonymous` when it has none, `unknown` when the document did not parse or validate. */
  operation: string;
  /** query, mutation, subscription, or `unknown`. */
  type: string;
  outcome: 'ok' | 'error';
  transport: GraphQLTransport;
}

/**
 * Every Prometheus metric of one running app, on a registry of its own (several apps run
 * in one test process; prom-client's global registry would mix them). Built in
 * `startApp` and handed to what records into it; names and meanings: docs/operations.md.
 */
export class Metrics {
  readonly registry = new Registry();

  /** Latency of HTTP requests by route pattern (never the raw path), method and status. */
  readonly httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP request latency by matched route pattern, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  /** Latency of GraphQL operations (HTTP and websocket); a subscription's is the time to start it. */
  readonly graphqlDuration = new Histogram({
    name: `${PREFIX}graphql_operation_duration_seconds`,
    help: 'GraphQL operation latency by operation name, type, outcome and transport; for subscriptions, the time to start.',
    labelNames: ['operation', 'type', 'outcome', 'transport'] as const,
    registers: [this.registry],
  });

  /**
   * Campaign contacts dialed (one per call the campaign dialer places). Incremented by the
   * campaign dialer on the replica that dials; Prometheus sums the replicas.
   */
  readonly campaignDials = new Counter({
    name: `${PREFIX}campaign_dials_total`,
    help: 'Calls placed by the campaign dialer, on this replica.',
    registers: [this.registry],
  });

  /** Open websocket connections on this replica (graphql-ws, authenticated or not yet). */
  readonly websocketConnections = new Gauge({
    name: `${PREFIX}websocket_connections`,
    help: 'Open websocket connections on this replica.',
    registers: [this.registry],
  });

  /** GraphQL subscriptions streaming on this replica. */
  readonly activeSubscriptions = new Gauge({
    name: `${PREFIX}graphql_subscriptions_active`,
    help: 'GraphQL subscriptions streaming on this replica.',
    registers: [this.registry],
  });

  private readonly calls = new Gauge({
    name: `${PREFIX}calls`,
    help: 'Calls by status, over the whole database (the same on every replica).',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  private readonly liveCalls = new Gauge({
    name: `${PREFIX}calls_live`,
    help: 'Calls queued, ringing or in progress, over the whole database (the same on every replica).',
    registers: [this.registry],
  });

  private readonly executions = new Gauge({
    name: `${PREFIX}flow_executions`,
    help: 'Flow executions by status, over the whole database (the same on every replica).',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  private readonly queueDepth = new Gauge({
    name: `${PREFIX}job_queue_depth`,
    help: 'Jobs waiting by queue: ready to run now, or scheduled for later (the same on every replica).',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
  });

  private readonly operationNames = new Set<string>();

  constructor() {
    // Process metrics (CPU, memory, event loop lag, GC, handles) on this registry only. Each
    // app starts its own event-loop monitor and GC observer; prom-client cannot stop them,
    // which costs nothing in production (one app) and a little per app in a test process.
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
  }

  /** Records one GraphQL operation; names beyond the first MAX_OPERATION_NAMES become `other` (clients choose names). */
  observeGraphQL(labels: GraphQLOperationLabels, seconds: number): void {
    let { operation } = labels;
    if (!this.operationNames.has(operation)) {
      if (this.operationNames.size < MAX_OPERATION_NAMES) this.operationNames.add(operation);
      else operation = 'other';
    }
    this.graphqlDuration.observe({ ...labels, operation }, seconds);
  }

  /** The Prometheus text exposition, with the database-derived gauges set from `state`. */
  async render(state: SystemState): Promise<string> {
    for (const status of CALL_STATUSES) this.calls.set({ status }, state.calls.get(status) ?? 0);
    this.liveCalls.set(LIVE_STATUSES.reduce((sum, status) => sum + (state.calls.get(status) ?? 0), 0));
    for (const status of EXECUTION_STATUSES) this.executions.set({ status }, state.executions.get(status) ?? 0);
    this.queueDepth.reset();
    for (const [queue, { ready, scheduled }] of state.queues) {
      this.queueDepth.set({ queue, state: 'ready' }, ready);
      this.queueDepth.set({ queue, state: 'scheduled' }, scheduled);
    }
    return this.registry.metrics();
  }

  /** The exposition's content type (Prometheus text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }
}
