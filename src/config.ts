import { z } from 'zod';

const boolean = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

/**
 * Every setting the process reads from its environment. Parsed once at start; a bad value
 * stops start-up with one line naming the variable (see `.env.example`).
 */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** PostgreSQL to use. Unset: an embedded PostgreSQL under EMBEDDED_PG_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  EMBEDDED_PG_DIR: z.string().min(1).default('.data/postgres'),
  EMBEDDED_PG_PORT: port.default(54329),
  /** HS256 secret for JWT bearer tokens. Unset: JWTs are refused, API keys still work. */
  JWT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  DEFAULT_PHONE_REGION: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter ISO country code such as US')
    .default('US'),
  PRICE_UNIT: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as USD')
    .default('USD'),
  TELEPHONY_PROVIDER: z.enum(['simulated']).default('simulated'),
  SEED_DEMO: boolean.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How often an idle job worker looks for jobs queued by other replicas. */
  JOB_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Lets flow requests reach loopback, private, link-local and metadata addresses. */
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  /** Hosts (names or IPs) and CIDR ranges flow requests may reach although not public. */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '')),
  /** First pause between the retries of a step; doubled at each retry, at most 30 s. */
  WEBHOOK_RETRY_BACKOFF_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
});

type Env = z.infer<typeof schema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl: string | undefined;
  embeddedPg: { dir: string; port: number };
  jwtSecret: string | undefined;
  defaultPhoneRegion: string;
  priceUnit: string;
  telephonyProvider: Env['TELEPHONY_PROVIDER'];
  seedDemo: boolean;
  logLevel: Env['LOG_LEVEL'];
  jobPollMs: number;
  webhooks: { allowPrivate: boolean; allowedHosts: string[]; retryBackoffMs: number };
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError with one line naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    embeddedPg: { dir: e.EMBEDDED_PG_DIR, port: e.EMBEDDED_PG_PORT },
    jwtSecret: e.JWT_SECRET,
    defaultPhoneRegion: e.DEFAULT_PHONE_REGION,
    priceUnit: e.PRICE_UNIT,
    telephonyProvider: e.TELEPHONY_PROVIDER,
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    jobPollMs: e.JOB_POLL_MS,
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, allowedHosts: e.WEBHOOK_ALLOWED_HOSTS, retryBackoffMs: e.WEBHOOK_RETRY_BACKOFF_MS },
  };
}
