import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import type { JobQueue } from './jobs/job-queue';

/** How long the database may take to answer `select 1` before the replica counts as not ready. */
const DATABASE_TIMEOUT_MS = 2000;

/** Each check: `ok`, `disabled` (not this replica's job, still ready), or why it fails. */
export interface ReadinessChecks {
  database: 'ok' | 'unreachable';
  migrations: 'ok' | `${number} pending`;
  workers: 'ok' | 'disabled' | 'stopped';
}

export interface Readiness {
  ready: boolean;
  checks: ReadinessChecks;
}

export interface HealthOptions {
  /** Whether this replica was started to work on jobs (JOB_WORKERS). */
  workers: boolean;
  logger: Logger;
}

/**
 * Whether this replica can serve: for load balancers and orchestrators (GET /readyz). The
 * migrations are compared once, at start (they change only with a deploy); the database and
 * the job workers are checked at every call.
 */
export class HealthService {
  private constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    private readonly pendingMigrations: number,
    private readonly options: HealthOptions,
  ) {}

  static async start(orm: MikroORM, jobs: JobQueue, options: HealthOptions): Promise<HealthService> {
    const pending = await orm.migrator.getPendingMigrations();
    return new HealthService(orm, jobs, pending.length, options);
  }

  async readiness(): Promise<Readiness> {
    const checks: ReadinessChecks = {
      database: (await this.databaseAnswers()) ? 'ok' : 'unreachable',
      migrations: this.pendingMigrations === 0 ? 'ok' : `${this.pendingMigrations} pending`,
      workers: !this.options.workers ? 'disabled' : this.jobs.working ? 'ok' : 'stopped',
    };
    return { ready: Object.values(checks).every((c) => c === 'ok' || c === 'disabled'), checks };
  }

  private async databaseAnswers(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<{ ok: false; reason: string }>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${DATABASE_TIMEOUT_MS} ms` }), DATABASE_TIMEOUT_MS);
    });
    try {
      const check = await Promise.race([this.orm.checkConnection(), timeout]);
      if (!check.ok) this.options.logger.warn({ reason: check.reason }, 'readiness: database unreachable');
      return check.ok;
    } finally {
      clearTimeout(timer);
    }
  }
}
