import { type RunningServices, startServices } from '../../src/app';
import type { Clock } from '../../src/services/shared/clock';
import type { Caller } from '../../src/services/shared/scope';
import { createLogger } from '../../src/logger';
import { createTestDatabase, testConfig } from './harness';

export interface TestServices extends RunningServices {
  /** A new company with its API key. */
  company(name?: string): Promise<{ companyId: string; apiKey: string }>;
  /** A caller of `companyId` with a fresh unit of work, as a request or a job has. */
  caller(companyId: string): Caller;
}

/**
 * The services on a database of their own, without HTTP and without job workers: the test
 * drives the engines itself (a dialer tick, a flow step, a call transition) and moves `clock`
 * by hand. `close()` drops the database. With `databaseUrl` (another instance's
 * `databaseUrl`), a second process's services on that database, which `close()` leaves.
 */
export async function startTestServices(env: Record<string, string> = {}, options: { clock?: Clock; databaseUrl?: string } = {}): Promise<TestServices> {
  const db = options.databaseUrl ? { url: options.databaseUrl, drop: async () => undefined } : await createTestDatabase();
  const config = testConfig(db.url, { JOB_WORKERS: '0', ...env });
  const running = await startServices(config, createLogger(config.logLevel), options);
  return {
    ...running,
    company: (name = 'Acme') => running.services.auth.createCompany(running.orm.em.fork(), { name }),
    caller: (companyId) => ({ scope: { companyId, userId: null }, em: running.orm.em.fork() }),
    async close() {
      await running.close();
      await db.drop();
    },
  };
}
