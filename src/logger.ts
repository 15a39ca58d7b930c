import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';
import pino from 'pino';

export type Logger = pino.Logger;

/**
 * Fields every line logged within one unit of work carries: a request (`request_id`, then
 * `company_id`/`user_id` once the caller is authenticated), a websocket operation, a job
 * (`job`, `job_id`, `company_id`).
 */
export interface LogFields {
  request_id?: string;
  company_id?: string;
  user_id?: string | null;
  job?: string;
  job_id?: string;
}

/**
 * The fields of the unit of work under way. Module-level on purpose: async context belongs
 * to the call chain, not to an app instance, so two apps in one process never see each
 * other's fields, and services deep down log with them without being handed anything.
 */
const context = new AsyncLocalStorage<LogFields>();

/** Runs `fn` with `fields` on every line logged within it (and within what it awaits). */
export function withLogFields<T>(fields: LogFields, fn: () => T): T {
  return context.run({ ...fields }, fn);
}

/** Adds fields to the current unit of work (the tenancy ids, once the caller is known). No-op outside one. */
export function addLogFields(fields: LogFields): void {
  const store = context.getStore();
  if (store) Object.assign(store, fields);
}

/** Header and property names whose values are credentials, wherever they sit (one level deep). */
const SECRET_KEYS = ['authorization', 'cookie', 'set-cookie', 'apiKey', 'api_key', 'secret', 'signingSecret', 'signing_secret', 'token', 'password', 'jwt'];

const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
  ...['authorization', 'cookie', 'set-cookie', 'x-api-key'].flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]),
];

/** Credentials by shape, for free text (error messages and stacks): API keys, webhook secrets, JWTs, bearer values. */
const SECRET_SHAPES: [RegExp, string][] = [
  [/\bsk_[\w-]{8,}/g, 'sk_[redacted]'],
  [/\bwhsec_[\w+/=-]{8,}/g, 'whsec_[redacted]'],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, '[redacted jwt]'],
  [/\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, '$1 [redacted]'],
];

const scrub = (text: string) => SECRET_SHAPES.reduce((t, [shape, replacement]) => t.replace(shape, replacement), text);

/**
 * The database driver's own words, without the statement: knex prefixes driver errors with
 * the SQL and its values inlined (`insert ... values ('whsec_...') - <message>`), which
 * would put stored secrets and personal data in the logs.
 */
function withoutStatement(err: Record<string, unknown>, message: string): string {
  if (!('sqlState' in err || 'routine' in err)) return message;
  const cut = message.lastIndexOf(' - ');
  return cut === -1 ? message : `(statement omitted) ${message.slice(cut + 3)}`;
}

/**
 * `err` as logged: type, message, stack (causes included), code and status only. Other
 * properties are dropped because libraries hang request bodies, bound query values,
 * response headers or client configs on their errors; known credential shapes are masked.
 */
function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const full = pino.stdSerializers.err(err);
  const fields = err as unknown as Record<string, unknown>;
  const message = withoutStatement(fields, full.message);
  const stack = full.stack.replace(full.message, message);
  const code = typeof fields.code === 'string' || typeof fields.code === 'number' ? fields.code : undefined;
  const status = typeof fields.status === 'number' ? fields.status : undefined;
  return { type: full.type, message: scrub(message), stack: scrub(stack), ...(code !== undefined && { code }), ...(status !== undefined && { status }) };
}

export interface LoggerOptions {
  /** Where lines go (default stdout); tests capture them. */
  destination?: pino.DestinationStream;
}

/**
 * JSON logs on stdout. Each line carries the fields of its unit of work (`withLogFields`);
 * credentials never reach the output: redacted by key, masked by shape inside errors.
 */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  return pino(
    {
      level,
      base: { service: 'switchboard' },
      mixin: () => ({ ...context.getStore() }),
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError },
    },
    options.destination,
  );
}

/**
 * Makes `logger` the process's only output, so that every line is JSON (docs/operations.md):
 * what libraries print with `console` goes through it, process warnings too (Node's own
 * printer, the default 'warning' listener, is replaced), and a crash (an uncaught exception
 * or unhandled rejection) is one `fatal` line before the process exits with 1, as Node
 * would have exited.
 */
export function captureProcessOutput(logger: Logger): void {
  const to =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) =>
      logger[level]({ console: true }, format(...args));
  Object.assign(console, { log: to('info'), info: to('info'), debug: to('debug'), trace: to('debug'), warn: to('warn'), error: to('error') });
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ err: warning }, 'process warning'));
  const crash = (what: string) => (err: unknown) => {
    logger.fatal({ err }, `${what}; exiting`);
    process.exit(1);
  };
  process.on('uncaughtException', crash('uncaught exception'));
  process.on('unhandledRejection', crash('unhandled promise rejection'));
}
