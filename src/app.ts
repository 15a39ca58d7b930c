import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import Koa from 'koa';
import type pg from 'pg';
import type { Config } from './config';
import { resolveDatabase } from './db/database';
import type { RunningDatabase } from './db/embedded-postgres';
import { openDatabase, openRequestOrm, type StatementListener } from './db/orm';
import { closePool, openSidePool } from './db/side-pool';
import { createGraphQL, GRAPHQL_PATH } from './graphql';
import { answerClientErrors } from './http/client-error';
import { consolePages } from './http/console';
import type { Logger } from './logger';
import { Metrics } from './metrics';
import { restRouter } from './rest';
import { answerHotReads } from './rest/hot-reads';
import { apiReference } from './rest/api-reference';
import { corsPolicy } from './rest/cors';
import { relayWebSockets } from './relay/relay.ws';
import { restRecordViews } from './rest/record-views';
import { metricsRoutes } from './rest/metrics.routes';
import { handleErrors, rejectMalformedUrls } from './rest/middleware';
import { observeRequests } from './rest/observe';
import { allowedMethods } from './rest/routing';
import { createServices, jobHandlers, type Services } from './services';
import { type Clock, systemClock } from './services/shared/clock';
import { type EventBus, startEventBus } from './services/platform/events';
import { HealthService } from './services/platform/health.service';
import { JobQueue } from './services/platform/jobs/job-queue';
import { startWorkers } from './services/platform/jobs/workers';
import { type DemoSeed, seedDemo } from './services/platform/seed.service';
import { RELAY_PATH } from './services/telephony/conversation-relay';
import { routeUpgrades } from './upgrades';
import { secretsKey } from './secrets-key';
import { upgradeSecretsAtRest } from './services/flows/flow-secrets.store';
import { SecretBox } from './services/shared/secret-box';

export interface RunningApp {
  server: http.Server;
  orm: MikroORM;
  services: Services;
  /** The event bus shared by every replica (PostgreSQL LISTEN/NOTIFY, or Redis). */
  events: EventBus;
  /** Durable jobs (pg-boss) this replica works on. */
  jobs: JobQueue;
  /** This app's Prometheus metrics, served at GET /metrics. */
  metrics: Metrics;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  /** The demo company made on first run, when SEED_DEMO is on and the database was empty. */
  demo: DemoSeed | null;
  /** Stops accepting requests and jobs, lets running ones finish, then closes the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Time source of the services (tests move it by hand). */
  clock?: Clock;
  /** Hears every statement the service's ORM runs (the tests' statement audit). */
  onStatement?: StatementListener;
}

export interface KoaParts {
  orm: MikroORM;
  services: Services;
  logger: Logger;
  metrics: Metrics;
  graphql: Koa.Middleware;
  health: HealthService;
  config: Pick<Config, 'publicBaseUrl' | 'metricsToken' | 'corsOrigins' | 'trustProxyHops'>;
}

export function createKoa({ orm, services, logger, metrics, graphql, health, config }: KoaParts): Koa {
  const app = new Koa();
  // ctx.ip as the failed-authentication limit reads the address (clientAddress).
  app.proxy = config.trustProxyHops > 0;
  app.maxIpsCount = config.trustProxyHops;
  // Koa's default handler prints these with console.error (a client's "Parse Error" mid-body,
  // a socket lost mid-response): they are logged as JSON lines like everything else.
  app.on('error', (err: unknown, ctx?: Koa.Context) => logger.warn({ err, method: ctx?.method, path: ctx?.path }, 'request or response stream failed'));
  app.use(observeRequests(logger, metrics));
  app.use(corsPolicy(config.corsOrigins));
  app.use(handleErrors(logger));
  const router = restRouter(orm, services, { publicBaseUrl: config.publicBaseUrl, health });
  app.use(rejectMalformedUrls(router));
  app.use(graphql);
  app.use(apiReference());
  app.use(consolePages(logger));
  const metricsRouter = metricsRoutes({ metrics, state: services.systemState, orm, token: config.metricsToken });
  app.use(allowedMethods([metricsRouter, router]));
  app.use(metricsRouter.routes());
  app.use(router.routes());
  return app;
}

interface Stores {
  db: RunningDatabase;
  /** Short statements beside the ORM's pool, shared by the rate limiter, the bus's publishes and the start-up locks. */
  sidePool: pg.Pool;
  orm: MikroORM;
  events: EventBus;
  jobs: JobQueue;
}

/**
 * The migrated database (external or embedded) with its secrets encrypted under `secrets`'
 * key, the side pool, the event bus between replicas and the job queue. When a step fails, what the earlier steps opened is closed again.
 */
async function openStores(config: Config, logger: Logger, secrets: SecretBox, onStatement?: StatementListener): Promise<Stores> {
  const db = await resolveDatabase(config, (line) => logger.debug({ postgres: line.trim() }, 'embedded postgres'));
  const opened: (() => Promise<void>)[] = [() => db.stop()];
  const sidePool = openSidePool(db.url, config.pools.side, logger, config.requestStatementTimeoutMs);
  opened.unshift(() => closePool(sidePool));
  try {
    const orm = await openDatabase(db.url, sidePool, config.pools.orm, logger, onStatement);
    opened.unshift(() => orm.close());
    const sealed = await upgradeSecretsAtRest(orm.em.fork(), secrets);
    if (sealed.flows + sealed.executions > 0) logger.info(sealed, 'encrypted the secrets stored in clear (docs/operations.md, "Secrets at rest")');
    const events = await startEventBus({
      databaseUrl: db.url,
      sidePool,
      redisUrl: config.redisUrl,
      onError: (err, context) => logger.warn({ err }, `event bus: ${context}`),
    });
    opened.unshift(() => events.close());
    const jobs = await JobQueue.start(db.url, sidePool, { pollMs: config.jobPollMs, poolMax: config.pools.jobs, ...config.jobRecovery }, logger);
    return { db, sidePool, orm, events, jobs };
  } catch (err) {
    for (const close of opened) await close();
    throw err;
  }
}

/**
 * The services on their stores, without HTTP or websockets; with JOB_WORKERS on, also the job
 * handlers and sweeps. What startApp serves, and what service tests drive directly (a tick,
 * a step, a transition) under a clock of their own.
 */
export interface RunningServices {
  orm: MikroORM;
  services: Services;
  events: EventBus;
  jobs: JobQueue;
  metrics: Metrics;
  databaseUrl: string;
  /** Stops taking work: the sweeps, the dialer's pending kicks, simulated calls' steps and conversations; lets flow steps sent locally finish. */
  stopWork(): Promise<void>;
  /** Stops work (again: harmless), lets running jobs finish, then closes the database. */
  close(): Promise<void>;
}

export async function startServices(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningServices> {
  const secrets = new SecretBox(await secretsKey(config.secrets, logger), config.previousSecretsKeys);
  const { db, sidePool, orm, events, jobs } = await openStores(config, logger, secrets, options.onStatement);
  const metrics = new Metrics();
  const services = createServices(config, { orm, sidePool, jobs, events, clock: options.clock ?? systemClock, logger, metrics, secrets, views: restRecordViews, onStatement: options.onStatement });
  const stopWorkers = config.jobWorkers
    ? await startWorkers(jobs, jobHandlers(services), services, orm, { sweepMs: config.callSweepMs, campaignSweepMs: config.campaigns.sweepMs, logger })
    : () => undefined;
  const stopWork = async () => {
    stopWorkers();
    services.dialer.stop();
    await Promise.all([services.lifecycle.stopSimulated(), services.flows.stopLocal()]);
  };
  return {
    orm,
    services,
    events,
    jobs,
    metrics,
    databaseUrl: db.url,
    stopWork,
    async close() {
      await stopWork();
      await jobs.stop();
      await services.close();
      await events.close();
      await orm.close();
      // Last of the connections: the limiter, the bus and the queue's locks used it until now.
      await closePool(sidePool);
      await db.stop();
    },
  };
}

/** Starts the whole service: database, migrations, event bus, jobs, seed, HTTP and websockets. */
export async function startApp(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningApp> {
  const core = await startServices(config, logger, options);
  const { orm, services, events, jobs, metrics } = core;
  const health = await HealthService.start(orm, jobs, { workers: config.jobWorkers, logger });
  const demo = config.seedDemo ? await seedDemo(orm.em.fork(), services) : null;
  // Requests fork an ORM of their own, whose statements are cut past REQUEST_STATEMENT_TIMEOUT_MS.
  const requests = await openRequestOrm(core.databaseUrl, config.pools.orm, config.requestStatementTimeoutMs, logger, options.onStatement);
  const graphql = await createGraphQL({
    orm: requests,
    services,
    events,
    introspection: config.graphqlIntrospection,
    credentialCheckMs: config.authTrustMs,
    socketLimits: config.graphqlSockets,
    logger,
    metrics,
  });
  // Koa's callback() captures the middleware list: build it only after every app.use().
  const koa = createKoa({ orm: requests, services, logger, metrics, graphql: graphql.middleware, health, config }).callback();
  const hot = { orm: requests, auth: services.auth, rateLimits: services.rateLimits, campaigns: services.campaigns, logger, metrics };
  const server = http.createServer(answerHotReads(hot, koa));
  const relay = relayWebSockets(services.relay, logger);
  routeUpgrades(server, { [GRAPHQL_PATH]: graphql.upgrade, [RELAY_PATH]: relay.upgrade });
  answerClientErrors(server, logger);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    server,
    orm,
    services,
    events,
    jobs,
    metrics,
    url: `http://${host}:${port}`,
    demo,
    async close() {
      await core.stopWork();
      await relay.close();
      await graphql.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await requests.close();
      await core.close();
    },
  };
}
