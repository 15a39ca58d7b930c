import pino from 'pino';
import { startApp } from './app';
import { ConfigError, loadConfig } from './config';
import { CONSOLE_PATH } from './http/console';
import { captureProcessOutput, createLogger, type Logger } from './logger';

/** The configuration, or exits with one fatal JSON line naming every bad variable. */
function configOrExit(logger: Logger) {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    logger.fatal(err.message);
    process.exit(1);
  }
}

/**
 * The demo company's key, shown once (README, "First run"), as a JSON line like every other
 * and whatever LOG_LEVEL says: it is the only way to the key. The web console's address goes
 * beside it: open it, paste the key.
 */
function announceDemo(apiKey: string, url: string): void {
  createLogger('info').info(
    { demo_api_key: apiKey, console: `${url}${CONSOLE_PATH}`, try: `curl -H "Authorization: Bearer ${apiKey}" ${url}/v1/campaigns/list` },
    'Demo company created (SEED_DEMO=0 turns this off). Its API key, demo_api_key, is shown only this once: paste it into the web console',
  );
}

/**
 * On a start that shows no key (the database already had a company), how to get one: the
 * admin CLI lists the companies and makes a key for one (README, "First run").
 */
function announceKeys(logger: Logger): void {
  logger.info(
    { list_companies: 'npm run --silent admin -- list-companies', create_api_key: 'npm run --silent admin -- create-api-key --company <id>' },
    'No API key is shown on a later start: list the companies (list_companies), then make a key for one of them (create_api_key); in a container, node dist/src/cli/admin.js takes the same commands',
  );
}

async function main(startup: Logger): Promise<void> {
  const config = configOrExit(startup);
  const logger = createLogger(config.logLevel);
  captureProcessOutput(logger);
  logger.info({ database: config.databaseUrl ? 'DATABASE_URL' : `embedded (${config.embeddedPg.dir})` }, 'starting');
  const app = await startApp(config, logger);
  logger.info({ url: app.url, console: `${app.url}${CONSOLE_PATH}` }, 'listening');
  if (app.demo) announceDemo(app.demo.apiKey, app.url);
  else if (await app.services.auth.hasCompanies(app.orm.em.fork())) announceKeys(logger);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

// Start-up failures are JSON lines too, on stderr (written at once: the process exits next).
const startup = createLogger('info', { destination: pino.destination({ dest: 2, sync: true }) });
main(startup).catch((err: unknown) => {
  startup.fatal({ err }, 'Start-up failed');
  process.exit(1);
});
