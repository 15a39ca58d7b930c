import { BENCH_SECRETS_KEY } from './database';

/** Rate limits stay on (their database round trips are part of every request's cost) but out of reach. */
const OUT_OF_REACH = '1000000000';

/**
 * The settings of a service a benchmark starts as a process of its own (`npm run bench`,
 * `bench:volume`); RATE_LIMIT_* variables of the caller pass through, `overrides` last.
 */
export function serviceEnv(databaseUrl: string, port: number, overrides: Record<string, string> = {}): Record<string, string> {
  const passed = Object.entries(process.env).filter(([k, v]) => k.startsWith('RATE_LIMIT_') && v !== undefined) as [string, string][];
  return {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    SECRETS_KEY: BENCH_SECRETS_KEY,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    SIM_RING_MS: '100',
    SIM_TALK_MS: '200',
    MAX_CONCURRENT_CALLS_PER_COMPANY: '10000',
    RATE_LIMIT_PER_CREDENTIAL: OUT_OF_REACH,
    RATE_LIMIT_PER_COMPANY: OUT_OF_REACH,
    // The subscribers' sockets share one API key.
    GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL: OUT_OF_REACH,
    RATE_LIMIT_MAKE_CALL: OUT_OF_REACH,
    RATE_LIMIT_FLOW_TRIGGER: OUT_OF_REACH,
    ...Object.fromEntries(passed),
    ...overrides,
  };
}
