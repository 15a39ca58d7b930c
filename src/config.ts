import path from 'node:path';
import { z } from 'zod';
import type { JwtOptions } from './services/auth/auth.service';
import type { CallPrices } from './services/calls/call-cost';

const boolean = z.enum(['1', '0', 'true', 'false', 'yes', 'no']).transform((v) => v === '1' || v === 'true' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

/** One browser origin, exactly as a browser sends it in `Origin`: scheme, host, optional port. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** `*`, or comma-separated origins such as `https://app.example.com,http://localhost:5173`. */
const corsOrigins = z
  .string()
  .default('*')
  .transform((s) =>
    s
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== ''),
  )
  .refine((list) => (list.length === 1 && list[0] === '*') || (list.length > 0 && list.every(isOrigin)), {
    error: 'must be * or comma-separated origins such as https://app.example.com (scheme, host and port only, no path or trailing slash)',
  })
  .transform((list): '*' | string[] => (list[0] === '*' ? '*' : list));

/** A 32-byte key written as 64 hex digits or in base64 (`openssl rand -base64 32`); null when it is neither. */
export function parseSecretsKey(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(t)) return Buffer.from(t, 'base64');
  return null;
}

const SECRETS_KEY_FORMAT = 'must be 32 bytes, as 64 hex digits or in base64 (openssl rand -base64 32)';
const secretsKey = z
  .string()
  .refine((s) => parseSecretsKey(s) !== null, { error: SECRETS_KEY_FORMAT })
  .transform((s) => parseSecretsKey(s)!);
const secretsKeys = z
  .string()
  .refine((s) => s.split(',').every((k) => parseSecretsKey(k) !== null), { error: `each key (comma-separated) ${SECRETS_KEY_FORMAT}` })
  .transform((s) => s.split(',').map((k) => parseSecretsKey(k)!));

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
  /**
   * PostgreSQL connections per replica (docs/operations.md, Scaling): the ORM's pool, the
   * job queue's, and the side pool (rate-limit reservations, event publishes, the hot reads
   * and the start-up locks, one short statement each).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  JOB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  DATABASE_SIDE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * PostgreSQL's `statement_timeout` on the connections of requests (REST and GraphQL: the
   * requests' ORM and the side pool, where their prepared reads run): a statement of a request
   * running longer is cancelled and the request answered TIMEOUT.
   */
  REQUEST_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(5000),
  /**
   * Key of the secrets kept in the database (flow signing secrets, secret variables),
   * the same on every replica. Unset: a key file beside the embedded data folder.
   */
  SECRETS_KEY: secretsKey.optional(),
  /**
   * Earlier keys of secrets at rest, comma-separated, while the key is rotated: what they
   * encrypted is still read, and `admin rotate-secrets` encrypts it again under SECRETS_KEY.
   */
  SECRETS_PREVIOUS_KEYS: secretsKeys.optional(),
  /** HS256 secret for JWT bearer tokens. Unset: JWTs are refused, API keys still work. */
  JWT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Longest a JWT may be valid: `exp` minus `iat` (minus now without `iat`); a JWT without `exp` is refused. */
  JWT_MAX_LIFETIME_S: z.coerce.number().int().min(60).default(86_400),
  /** When set, a JWT's `aud` must name it. */
  JWT_AUDIENCE: z.string().min(1).optional(),
  /** When set, a JWT's `iss` must be it. */
  JWT_ISSUER: z.string().min(1).optional(),
  /**
   * How long a replica trusts a verified credential without asking the database again, and
   * how often an open websocket re-checks its own: a revoked API key stops working within it.
   */
  AUTH_TRUST_S: z.coerce.number().int().min(1).max(3600).default(30),
  DEFAULT_PHONE_REGION: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter ISO country code such as US')
    .default('US'),
  PRICE_UNIT: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as USD')
    .default('USD'),
  TELEPHONY_PROVIDER: z.enum(['simulated', 'twilio']).default('simulated'),
  /** Simulated provider: how long a call rings, and how long an answered call lasts. */
  SIM_RING_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  SIM_TALK_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  /**
   * Simulated provider with a language model (docs/calls.md): the simulated callee's turns
   * before it hangs up (0: no simulated callee, the canned transcript as without a model), and
   * how long after the answer the call is ended anyway when its conversation is lost.
   */
  SIM_CALLEE_TURNS: z.coerce.number().int().min(0).max(20).default(4),
  SIM_CALLEE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  /** Simulated test calls of one agent test run at once, on one replica (docs/agents.md, "Test suites"). */
  AGENT_TEST_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  /** Days a call's recording is kept, from when it was stored; then deleted at the provider. Unset: kept. */
  RECORDING_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  /** Price of one minute of call, in PRICE_UNIT. */
  CALL_PRICE_PER_MINUTE: z.coerce.number().min(0).max(100).default(0.05),
  /** Price of one minute of a recorded call's recording, in PRICE_UNIT (docs/calls.md, "Cost"). */
  RECORDING_PRICE_PER_MINUTE: z.coerce.number().min(0).max(100).default(0),
  /** Prices of a million tokens the model reads (the prompt) and writes (the answer), in PRICE_UNIT. */
  LLM_PRICE_INPUT_PER_MTOK: z.coerce.number().min(0).max(10_000).default(0),
  LLM_PRICE_OUTPUT_PER_MTOK: z.coerce.number().min(0).max(10_000).default(0),
  /** A live call with no update for this long is ended as failed (disconnect_reason timeout). */
  MAX_CALL_DURATION_S: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** Outgoing calls (make-call, campaigns) of a company live at once; more wait in pstn-queued. */
  MAX_CONCURRENT_CALLS_PER_COMPANY: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Incoming calls of a company live at once, counted apart from outgoing ones; more are rejected busy. */
  MAX_CONCURRENT_INBOUND_CALLS_PER_COMPANY: z.coerce.number().int().min(1).max(10_000).default(10),
  /** How often each replica looks for timed-out and stranded calls. */
  CALL_SWEEP_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** How often each replica looks for campaigns with attempts due (retries, window openings). */
  CAMPAIGN_SWEEP_MS: z.coerce.number().int().min(10).max(3_600_000).default(5000),
  /** How often a running campaign adds contacts that newly match its selection. */
  CAMPAIGN_SELECTION_REFRESH_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** How many contacts the first slice of a campaign's selection pass reads (docs/campaigns.md). */
  CAMPAIGN_SELECTION_SLICE: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** The most contacts a later slice reads: each reads as many as all before it, up to this. */
  CAMPAIGN_SELECTION_SLICE_MAX: z.coerce.number().int().min(1).max(1_000_000).default(100_000),
  /** The most matched contacts a campaign's audience preview counts; past it, the counts are of the first this many, and say so (docs/campaigns.md, "Audience preview"). */
  AUDIENCE_COUNT_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Whether this replica works on jobs and sweeps calls (0: an API-only replica). */
  JOB_WORKERS: boolean.default(true),
  /** How often an idle job worker polls for jobs queued by other replicas. */
  JOB_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /**
   * Seconds a job may run (a flow step: its `timeout` plus this) before it is presumed dead,
   * its worker killed, and pg-boss hands it to another worker (docs/operations.md, Recovery).
   */
  JOB_EXPIRY_S: z.coerce.number().int().min(1).max(3600).default(30),
  /** How often pg-boss looks for expired jobs, across replicas (its maintenance interval). */
  JOB_MAINTENANCE_S: z.coerce.number().int().min(1).max(600).default(10),
  /** Twilio-compatible provider (TELEPHONY_PROVIDER=twilio). */
  TWILIO_API_BASE_URL: z.url().default('https://api.twilio.com'),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  /** Public URL of this service, for provider callbacks (default http://localhost:PORT). */
  PUBLIC_BASE_URL: z.url().optional(),
  SEED_DEMO: boolean.default(true),
  /** Redis for the event bus and the rate-limit counts shared by replicas. Unset: PostgreSQL (LISTEN/NOTIFY, a table). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** GraphQL schema introspection (and so the IDE's docs). Unset: on except in production. */
  GRAPHQL_INTROSPECTION: boolean.optional(),
  /** Open GraphQL websockets of one credential (API key or JWT) on one replica; past it a new one is closed with 4430. */
  GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL: z.coerce.number().int().min(1).default(100),
  /** Subscriptions running on one GraphQL websocket; past it a new one is refused (TOO_MANY_SUBSCRIPTIONS). */
  GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET: z.coerce.number().int().min(1).default(50),
  /** Bearer token GET /metrics requires. Unset: /metrics answers loopback clients only (docs/operations.md). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').regex(/^\S+$/, 'must not contain spaces').optional(),
  /** Browser origins allowed to call the API (CORS). `*`: any, since credentials are bearer tokens, never cookies. */
  CORS_ORIGINS: corsOrigins,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Lets flow requests reach loopback, private, link-local and metadata addresses. */
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  /** Hosts (names or IPs) and CIDR ranges flow requests may reach although not public. */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== ''),
    ),
  /** First pause between the retries of a step; doubled at each retry, at most 30 s. */
  WEBHOOK_RETRY_BACKOFF_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Whether requests are counted against the limits below (0: off, no database round trip). */
  RATE_LIMIT_ENABLED: boolean.default(true),
  /** Length of a rate-limit window; every RATE_LIMIT_* count below is per window. */
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).max(3600).default(60),
  /** Requests per window of one credential (an API key, or a JWT's company and sub). */
  RATE_LIMIT_PER_CREDENTIAL: z.coerce.number().int().min(1).default(600),
  /** Requests per window of one company, all its credentials together. */
  RATE_LIMIT_PER_COMPANY: z.coerce.number().int().min(1).default(1200),
  /** Make-calls per window of one company, on top of the request limits. */
  RATE_LIMIT_MAKE_CALL: z.coerce.number().int().min(1).default(120),
  /** Flow triggers per window of one company, on top of the request limits. */
  RATE_LIMIT_FLOW_TRIGGER: z.coerce.number().int().min(1).default(300),
  /** Failed authentications per minute of one client address before its requests are refused (0: off). */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(20),
  /**
   * How many proxies in front of the service append the address they received a request from
   * to `X-Forwarded-For` (or set it): the client is the entry that many places from its end, the
   * socket's peer counted last. 0: no proxy, the peer is the client and the header is ignored.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * The language model of the agent on the call: any OpenAI-compatible Chat Completions server
   * (docs/agents.md). Unset LLM_MODEL: no model, calls behave as without an agent.
   */
  LLM_BASE_URL: z.url().default('https://api.openai.com/v1'),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  /** The first token must come within this; the whole answer within three times this. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** Asked when the model still answers 429/5xx after its retry (docs/agents.md, "Failures"). */
  LLM_FALLBACK_MODEL: z.string().min(1).optional(),
  /** Longest pause between two pieces of a streamed answer. */
  LLM_INTER_TOKEN_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(5_000),
  /** Whether streams ask for their usage chunk (`stream_options`), which the model's cost needs; off for a server that refuses the parameter. */
  LLM_STREAM_USAGE: boolean.default(true),
  /** How long after a call ends its post-call analysis runs, so that the conversation's last turn is stored first. */
  LLM_ANALYSIS_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  /**
   * Whether the ConversationRelay TwiML asks Twilio for its `info` events (who is speaking,
   * what was played): docs/calls.md, "Playback". Off: playback is estimated.
   */
  RELAY_INFO_EVENTS: boolean.default(true),
});

type Env = z.infer<typeof schema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl: string | undefined;
  embeddedPg: { dir: string; port: number };
  /** Connections per pool: the ORM's, pg-boss's and the side pool (src/db/side-pool.ts). */
  pools: { orm: number; jobs: number; side: number };
  /** Longest a statement of a request may run (src/db/orm.ts, openRequestOrm). */
  requestStatementTimeoutMs: number;
  /** The key of secrets at rest: given (SECRETS_KEY), or kept in `keyFile`, made on first start (docs/operations.md, "Secrets at rest"). */
  secrets: { key: Buffer } | { keyFile: string; sharedDatabase: boolean };
  /** Earlier keys, still read during a rotation (SECRETS_PREVIOUS_KEYS; docs/operations.md, "Rotating the key"). */
  previousSecretsKeys: Buffer[];
  jwt: JwtOptions;
  authTrustMs: number;
  defaultPhoneRegion: string;
  priceUnit: string;
  telephonyProvider: Env['TELEPHONY_PROVIDER'];
  simulated: { ringMs: number; talkMs: number; calleeTurns: number; calleeTimeoutMs: number };
  /** AGENT_TEST_CONCURRENCY. */
  agentTestConcurrency: number;
  /** What a call's parts cost, in `priceUnit` (docs/calls.md, "Cost"). */
  prices: CallPrices;
  maxCallDurationS: number;
  /** RECORDING_RETENTION_DAYS; null keeps recordings. */
  recordingRetentionDays: number | null;
  maxConcurrentCallsPerCompany: number;
  maxConcurrentInboundCallsPerCompany: number;
  callSweepMs: number;
  campaigns: { sweepMs: number; selectionRefreshMs: number; selectionSlices: { first: number; max: number }; audienceCountLimit: number };
  jobPollMs: number;
  jobWorkers: boolean;
  /** How soon the jobs of a killed worker run again: see JOB_EXPIRY_S and JOB_MAINTENANCE_S. */
  jobRecovery: { expiryS: number; maintenanceS: number };
  twilio: { baseUrl: string; accountSid: string; authToken: string } | null;
  /** RELAY_INFO_EVENTS: the relay TwiML asks for Twilio's `info` events. */
  relayInfoEvents: boolean;
  publicBaseUrl: string;
  seedDemo: boolean;
  redisUrl: string | undefined;
  graphqlIntrospection: boolean;
  /** Limits of GraphQL websockets (docs/graphql.md, Limits). */
  graphqlSockets: { maxPerCredential: number; maxSubscriptionsPerSocket: number };
  metricsToken: string | undefined;
  /** Origins whose pages may call the API from a browser: `*` for any (docs/operations.md). */
  corsOrigins: '*' | string[];
  logLevel: Env['LOG_LEVEL'];
  webhooks: { allowPrivate: boolean; allowedHosts: string[]; retryBackoffMs: number };
  /** Null when rate limiting is off. */
  rateLimits: RateLimits | null;
  /** Failed authentications per minute of one client address; 0: not limited. */
  authFailuresPerMinute: number;
  /** TRUST_PROXY_HOPS: the proxies whose `X-Forwarded-For` entries name the client (src/http/client-address.ts). */
  trustProxyHops: number;
  /** Null when no language model is configured (LLM_MODEL unset). */
  llm: LlmConfig | null;
  /** How long after a call ends its post-call analysis runs (with a model). */
  analysisDelayMs: number;
}

/** An OpenAI-compatible Chat Completions server: see docs/agents.md. */
export interface LlmConfig {
  baseUrl: string;
  /** Local servers (Ollama, vLLM, llama.cpp) accept any key; unset is sent as a placeholder. */
  apiKey: string | undefined;
  model: string;
  /** Asked when `model` keeps answering 429/5xx; undefined: none. */
  fallbackModel?: string | undefined;
  timeoutMs: number;
  /** Longest pause between two pieces of a streamed answer; undefined: only the overall limit. */
  interTokenTimeoutMs?: number;
  /** Whether each stream asks for its usage chunk (`stream_options.include_usage`). */
  streamUsage: boolean;
}

/** Points (requests) per window, per key: see docs/operations.md. */
export interface RateLimits {
  windowS: number;
  perCredential: number;
  perCompany: number;
  makeCall: number;
  flowTrigger: number;
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
  if (e.TELEPHONY_PROVIDER === 'twilio' && !(e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN)) {
    throw new ConfigError('Invalid configuration: TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are required when TELEPHONY_PROVIDER=twilio');
  }
  if (!e.LLM_MODEL && (present.LLM_BASE_URL || present.LLM_API_KEY)) {
    throw new ConfigError('Invalid configuration: LLM_MODEL is required when LLM_BASE_URL or LLM_API_KEY is set');
  }
  if (!e.SECRETS_KEY && e.DATABASE_URL && e.NODE_ENV === 'production') {
    throw new ConfigError('Invalid configuration: SECRETS_KEY is required when DATABASE_URL is set and NODE_ENV=production (the same key on every replica: docs/operations.md, "Secrets at rest")');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    embeddedPg: { dir: e.EMBEDDED_PG_DIR, port: e.EMBEDDED_PG_PORT },
    pools: { orm: e.DATABASE_POOL_MAX, jobs: e.JOB_POOL_MAX, side: e.DATABASE_SIDE_POOL_MAX },
    requestStatementTimeoutMs: e.REQUEST_STATEMENT_TIMEOUT_MS,
    secrets: e.SECRETS_KEY ? { key: e.SECRETS_KEY } : { keyFile: path.join(path.dirname(e.EMBEDDED_PG_DIR), 'secrets.key'), sharedDatabase: e.DATABASE_URL !== undefined },
    previousSecretsKeys: e.SECRETS_PREVIOUS_KEYS ?? [],
    jwt: { secret: e.JWT_SECRET, maxLifetimeS: e.JWT_MAX_LIFETIME_S, audience: e.JWT_AUDIENCE, issuer: e.JWT_ISSUER },
    authTrustMs: e.AUTH_TRUST_S * 1000,
    defaultPhoneRegion: e.DEFAULT_PHONE_REGION,
    priceUnit: e.PRICE_UNIT,
    telephonyProvider: e.TELEPHONY_PROVIDER,
    simulated: { ringMs: e.SIM_RING_MS, talkMs: e.SIM_TALK_MS, calleeTurns: e.SIM_CALLEE_TURNS, calleeTimeoutMs: e.SIM_CALLEE_TIMEOUT_MS },
    agentTestConcurrency: e.AGENT_TEST_CONCURRENCY,
    prices: {
      callPerMinute: e.CALL_PRICE_PER_MINUTE,
      recordingPerMinute: e.RECORDING_PRICE_PER_MINUTE,
      llmInputPerMTok: e.LLM_PRICE_INPUT_PER_MTOK,
      llmOutputPerMTok: e.LLM_PRICE_OUTPUT_PER_MTOK,
    },
    maxCallDurationS: e.MAX_CALL_DURATION_S,
    recordingRetentionDays: e.RECORDING_RETENTION_DAYS ?? null,
    maxConcurrentCallsPerCompany: e.MAX_CONCURRENT_CALLS_PER_COMPANY,
    maxConcurrentInboundCallsPerCompany: e.MAX_CONCURRENT_INBOUND_CALLS_PER_COMPANY,
    callSweepMs: e.CALL_SWEEP_MS,
    campaigns: {
      sweepMs: e.CAMPAIGN_SWEEP_MS,
      selectionRefreshMs: e.CAMPAIGN_SELECTION_REFRESH_MS,
      selectionSlices: { first: e.CAMPAIGN_SELECTION_SLICE, max: e.CAMPAIGN_SELECTION_SLICE_MAX },
      audienceCountLimit: e.AUDIENCE_COUNT_LIMIT,
    },
    jobPollMs: e.JOB_POLL_MS,
    jobWorkers: e.JOB_WORKERS,
    jobRecovery: { expiryS: e.JOB_EXPIRY_S, maintenanceS: e.JOB_MAINTENANCE_S },
    twilio: e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN ? { baseUrl: e.TWILIO_API_BASE_URL.replace(/\/$/, ''), accountSid: e.TWILIO_ACCOUNT_SID, authToken: e.TWILIO_AUTH_TOKEN } : null,
    relayInfoEvents: e.RELAY_INFO_EVENTS,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    seedDemo: e.SEED_DEMO,
    redisUrl: e.REDIS_URL,
    graphqlIntrospection: e.GRAPHQL_INTROSPECTION ?? e.NODE_ENV !== 'production',
    graphqlSockets: { maxPerCredential: e.GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL, maxSubscriptionsPerSocket: e.GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET },
    metricsToken: e.METRICS_TOKEN,
    corsOrigins: e.CORS_ORIGINS,
    logLevel: e.LOG_LEVEL,
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, allowedHosts: e.WEBHOOK_ALLOWED_HOSTS, retryBackoffMs: e.WEBHOOK_RETRY_BACKOFF_MS },
    rateLimits: e.RATE_LIMIT_ENABLED
      ? {
          windowS: e.RATE_LIMIT_WINDOW_S,
          perCredential: e.RATE_LIMIT_PER_CREDENTIAL,
          perCompany: e.RATE_LIMIT_PER_COMPANY,
          makeCall: e.RATE_LIMIT_MAKE_CALL,
          flowTrigger: e.RATE_LIMIT_FLOW_TRIGGER,
        }
      : null,
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    llm: e.LLM_MODEL
      ? {
          baseUrl: e.LLM_BASE_URL.replace(/\/$/, ''),
          apiKey: e.LLM_API_KEY,
          model: e.LLM_MODEL,
          fallbackModel: e.LLM_FALLBACK_MODEL,
          timeoutMs: e.LLM_TIMEOUT_MS,
          interTokenTimeoutMs: e.LLM_INTER_TOKEN_TIMEOUT_MS,
          streamUsage: e.LLM_STREAM_USAGE,
        }
      : null,
    analysisDelayMs: e.LLM_ANALYSIS_DELAY_MS,
  };
}
