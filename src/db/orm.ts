import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../logger';
import { DefaultLogger, type LogContext, type LoggerOptions } from '@mikro-orm/core';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { entities } from '../entities';
import { migrationsList } from '../migrations';
import { withSessionLock } from './side-pool';
import { TABLES_WITHOUT_ENTITIES } from './tables';

/**
 * What MikroORM and knex would print through `console` (knex's "Connection Error: ..." when
 * PostgreSQL drops a connection, ORM warnings), as JSON lines of `logger` instead.
 */
function libraryLogs(logger: Logger) {
  const line = (level: 'debug' | 'warn' | 'error') => (message: unknown) => logger[level]({ library: 'knex' }, String(message));
  return {
    logger: (message: string) => logger.warn({ library: 'mikro-orm' }, message),
    colors: false,
    driverOptions: { log: { debug: line('debug'), warn: line('warn'), error: line('error'), deprecate: line('warn') } },
  };
}

/** Hears the text of every statement the ORM runs (with `$n` placeholders, never the values). */
export type StatementListener = (sql: string) => void;

/**
 * MikroORM's documented query logging (`debug: ['query']` and a `loggerFactory`) turned into
 * a listener: each statement goes to `listener` instead of a log line.
 */
function statementsTo(listener: StatementListener) {
  class StatementLogger extends DefaultLogger {
    override logQuery(context: LogContext): void {
      if (context.query) listener(context.query);
    }
  }
  return { debug: ['query' as const], loggerFactory: (options: LoggerOptions) => new StatementLogger(options) };
}

/**
 * MikroORM options for one database. Schema changes come only from committed migrations.
 * With `logger`, the libraries' own messages go to it; with `onStatement`, every statement's text.
 */
export function ormOptions(clientUrl: string, poolMax: number, logger?: Logger, onStatement?: StatementListener) {
  return defineConfig({
    ...(logger ? libraryLogs(logger) : {}),
    clientUrl,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: false,
    ...(onStatement ? statementsTo(onStatement) : {}),
    // Not entities: rate-limiter-flexible reads and writes its table; the flow-event outbox,
    // the idempotency keys and the relay sessions are plain SQL stores (made by migrations all the same).
    schemaGenerator: { skipTables: TABLES_WITHOUT_ENTITIES },
    migrations: {
      migrationsList,
      path: 'src/migrations',
      emit: 'ts',
      // Each migration commits on its own (not all pending ones in one transaction), so that one
      // building an index CONCURRENTLY (`isTransactional() === false`) runs outside any transaction.
      transactional: true,
      allOrNothing: false,
      snapshot: false,
      silent: true,
    },
  });
}

/**
 * The ORM of requests (REST and GraphQL, over HTTP and websockets): the same database and
 * entities on a pool of its own, whose sessions cancel any statement running longer than
 * `statementTimeoutMs` (PostgreSQL's `statement_timeout`, a parameter of each connection as
 * it opens; node-postgres's documented `statement_timeout` option). A request's unit of work
 * forks this ORM, so one request cannot hold the database for long, whether its statements
 * run in a transaction or not; the job workers, sweeps and engines fork the main ORM and run
 * without the limit. Open it once the main ORM has migrated.
 */
export function openRequestOrm(clientUrl: string, poolMax: number, statementTimeoutMs: number, logger?: Logger, onStatement?: StatementListener): Promise<MikroORM> {
  const options = ormOptions(clientUrl, poolMax, logger, onStatement);
  return MikroORM.init({ ...options, driverOptions: { ...options.driverOptions, connection: { statement_timeout: statementTimeoutMs } } });
}

/** Session advisory lock held while migrating; other replicas wait for it (key space: hashtext). */
const MIGRATION_LOCK = 'switchboard:migrations';

/**
 * Connects and applies pending migrations (never schema sync). Replicas starting together
 * take turns: each migrates under one advisory lock, taken on a connection of `sidePool`, so
 * the first applies what is pending and the others then find nothing left (the migrator has
 * no lock of its own; without this, two replicas run the same migration and one fails to start).
 */
export async function openDatabase(clientUrl: string, sidePool: pg.Pool, poolMax: number, logger?: Logger, onStatement?: StatementListener): Promise<MikroORM> {
  const orm = await MikroORM.init(ormOptions(clientUrl, poolMax, logger, onStatement));
  try {
    await withSessionLock(sidePool, MIGRATION_LOCK, () => orm.migrator.up());
  } catch (err) {
    await orm.close();
    throw err;
  }
  return orm;
}
