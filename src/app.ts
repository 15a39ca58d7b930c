import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import Koa from 'koa';
import type { Config } from './config';
import { resolveDatabase } from './db/database';
import type { RunningDatabase } from './db/embedded-postgres';
import { openDatabase } from './db/orm';
import { createGraphQL } from './graphql';
import type { Logger } from './logger';
import { restRouter } from './rest';
import { handleErrors } from './rest/middleware';
import { createServices, type Services } from './services';
import { type EventBus, startEventBus } from './services/events';
import { type DemoSeed, seedDemo } from './services/seed.service';

export interface RunningApp {
  server: http.Server;
  orm: MikroORM;
  services: Services;
  /** The event bus shared by every replica (PostgreSQL LISTEN/NOTIFY, or Redis). */
  events: EventBus;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  /** The demo company made on first run, when SEED_DEMO is on and the database was empty. */
  demo: DemoSeed | null;
  /** Stops accepting requests, lets running ones finish, then closes the database. */
  close(): Promise<void>;
}

export function createKoa(orm: MikroORM, services: Services, logger: Logger, graphql: Koa.Middleware): Koa {
  const app = new Koa();
  app.proxy = true;
  app.use(handleErrors(logger));
  app.use(graphql);
  const router = restRouter(orm, services);
  app.use(router.routes());
  return app;
}

/**
 * The migrated database (external or embedded) and the event bus between replicas. When a
 * step fails, what the earlier steps opened is closed again.
 */
async function openStores(config: Config, logger: Logger): Promise<{ db: RunningDatabase; orm: MikroORM; events: EventBus }> {
  const db = await resolveDatabase(config, (line) => logger.debug({ postgres: line.trim() }, 'embedded postgres'));
  const opened: (() => Promise<void>)[] = [() => db.stop()];
  try {
    const orm = await openDatabase(db.url);
    opened.unshift(() => orm.close());
    const events = await startEventBus({
      databaseUrl: db.url,
      redisUrl: config.redisUrl,
      onError: (err, context) => logger.warn({ err }, `event bus: ${context}`),
    });
    return { db, orm, events };
  } catch (err) {
    for (const close of opened) await close();
    throw err;
  }
}

/** Starts the whole service: database, migrations, event bus, seed, HTTP and websockets. */
export async function startApp(config: Config, logger: Logger): Promise<RunningApp> {
  const { db, orm, events } = await openStores(config, logger);
  const services = createServices(config, events);
  const demo = config.seedDemo ? await seedDemo(orm.em.fork(), services) : null;
  const graphql = await createGraphQL({ orm, services, events, introspection: config.graphqlIntrospection, logger });
  // Koa's callback() captures the middleware list: build it only after every app.use().
  const server = http.createServer(createKoa(orm, services, logger, graphql.middleware).callback());
  graphql.attach(server);
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
    url: `http://${host}:${port}`,
    demo,
    async close() {
      await graphql.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await events.close();
      await orm.close();
      await db.stop();
    },
  };
}
