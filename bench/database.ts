/**
 * Without DATABASE_URL, benchmarks run on an embedded PostgreSQL of their own (folder and
 * port apart from the service's), so they neither touch nor collide with a local service.
 */
export const BENCH_DATABASE = { EMBEDDED_PG_DIR: '.data/bench-postgres', EMBEDDED_PG_PORT: '54339' };
