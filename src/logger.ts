import pino from 'pino';

export type Logger = pino.Logger;

/** JSON logs on stdout; credentials and secrets never reach them. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'switchboard' },
    redact: {
      paths: ['req.headers.authorization', 'authorization', 'apiKey', 'api_key', 'secret', '*.secret', 'token'],
      censor: '[redacted]',
    },
  });
}
