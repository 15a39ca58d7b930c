import { startApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { describeError } from './services/errors';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  logger.info({ database: config.databaseUrl ? 'DATABASE_URL' : `embedded (${config.embeddedPg.dir})` }, 'starting');
  const app = await startApp(config, logger);
  logger.info({ url: app.url }, 'listening');
  if (app.demo) {
    process.stdout.write(
      [
        '',
        'Demo company created (SEED_DEMO=0 turns this off). Its API key, shown only this once:',
        `  ${app.demo.apiKey}`,
        'Try:',
        `  curl -H "Authorization: Bearer ${app.demo.apiKey}" ${app.url}/v1/campaigns/list`,
        '',
      ].join('\n') + '\n',
    );
  }

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

main().catch((err: unknown) => {
  process.stderr.write(`Start-up failed: ${describeError(err)}\n`);
  process.exit(1);
});
