import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import Koa from 'koa';
import type { Config } from './config';
import { resolveDatabase } from './db/database';
import { openDatabase } from './db/orm';
import type { Logger } from './logger';
import { restRouter } from './rest';
import { handleErrors, rejectMalformedUrls } from './rest/middleware';
import { createServices, type Services } from './services';
import { type Clock, systemClock } from './services/clock';
import { JobQueue } from './services/jobs/job-queue';
import { startWorkers } from './services/jobs/workers';
import { type DemoSeed, seedDemo } from './services/seed.service';

export interface RunningApp {
  server: http.Server;
  orm: MikroORM;
  services: Services;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  /** The demo company made on first run, when SEED_DEMO is on and the database was empty. */
  demo: DemoSeed | null;
  /** Stops accepting requests, lets running ones finish, then closes the database. */
  close(): Promise<void>;
}

export function createKoa(orm: MikroORM, services: Services, logger: Logger): Koa {
  const app = new Koa();
  app.proxy = true;
  app.use(handleErrors(logger));
  app.use(rejectMalformedUrls());
  const router = restRouter(orm, services);
  app.use(router.routes());
  return app;
}

export interface StartOptions {
  /** Where services read the time (tests pass a controllable clock). */
  clock?: Clock;
}

/** Starts the whole service: database (external or embedded), migrations, jobs, seed, HTTP. */
export async function startApp(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningApp> {
  const db = await resolveDatabase(config, (line) => logger.debug({ postgres: line.trim() }, 'embedded postgres'));
  let orm: MikroORM;
  try {
    orm = await openDatabase(db.url);
  } catch (err) {
    await db.stop();
    throw err;
  }
  const jobs = await JobQueue.start(db.url, { pollMs: config.jobPollMs }, logger);
  const services = createServices(config, { jobs, clock: options.clock ?? systemClock, logger });
  await startWorkers(jobs, services, orm);
  const demo = config.seedDemo ? await seedDemo(orm.em.fork(), services) : null;
  // Koa's callback() captures the middleware list: build it only after every app.use().
  const server = http.createServer(createKoa(orm, services, logger).callback());
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
    url: `http://${host}:${port}`,
    demo,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await jobs.stop();
      await services.close();
      await orm.close();
      await db.stop();
    },
  };
}
