import PgBoss from 'pg-boss';
import type { Logger } from '../../logger';

/**
 * Every durable job of the product and its payload. Each feature adds its entries from its
 * own module by declaration merging:
 *
 *     declare module './jobs/job-queue' { interface JobMap { 'call.advance': { callId: string } } }
 *
 * A handler is an idempotent service method: delivery is at-least-once.
 */
export interface JobMap {}

export type JobName = keyof JobMap;

/**
 * pg-boss queue policies by job name. `short`: at most one job per `singletonKey` waits at a
 * time (more sends while one waits are dropped), which coalesces "do this again" signals.
 */
const POLICIES = new Map<string, 'short'>();

/** Makes `name` a `short` queue: set by the feature module that owns the job, at load. */
export function coalesceBySingletonKey(name: JobName): void {
  POLICIES.set(name, 'short');
}

export interface SendOptions {
  /** Not before this moment. */
  startAfter?: Date;
  /** At most one queued job per key (pg-boss singleton): makes enqueueing idempotent. */
  singletonKey?: string;
  /** Attempts after the first when the handler throws (default 3). */
  retryLimit?: number;
}

export interface WorkOptions {
  /** Jobs fetched and run concurrently per round. */
  batchSize?: number;
}

export interface JobQueueOptions {
  /** How often an idle worker looks for jobs queued by other replicas. */
  pollMs: number;
  /** How long a job may run before pg-boss hands it to another worker. */
  expireInSeconds?: number;
}

type Handler<K extends JobName> = (data: JobMap[K]) => Promise<void>;

/**
 * Durable jobs on pg-boss (tables in the `pgboss` schema of our database). Workers run their
 * own fetch loop: a batch is fetched, run concurrently, completed or failed in bulk, and the
 * next batch fetched at once while work remains; an idle worker sleeps `pollMs`, or less
 * when this process queues a job for it.
 */
export class JobQueue {
  private readonly loops: Promise<void>[] = [];
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly queues = new Set<string>();
  private stopping = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: JobQueueOptions,
    private readonly logger: Logger,
  ) {}

  static async start(connectionString: string, options: JobQueueOptions, logger: Logger): Promise<JobQueue> {
    const boss = new PgBoss({ connectionString, schema: 'pgboss', max: 10, supervise: true, schedule: false, application_name: 'switchboard-jobs' });
    boss.on('error', (err) => logger.error({ err }, 'job queue error'));
    await boss.start();
    return new JobQueue(boss, options, logger);
  }

  async send<K extends JobName>(name: K, data: JobMap[K], options: SendOptions = {}): Promise<void> {
    await this.ensureQueue(name);
    await this.boss.send(name, data, {
      startAfter: options.startAfter,
      singletonKey: options.singletonKey,
      retryLimit: options.retryLimit ?? 3,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: this.options.expireInSeconds ?? 60,
    });
    const wait = options.startAfter ? options.startAfter.getTime() - Date.now() : 0;
    setTimeout(() => this.wake(name), Math.max(0, wait)).unref();
  }

  /** Runs `handler` for every job of `name`, on this process, until stop(). */
  async work<K extends JobName>(name: K, options: WorkOptions, handler: Handler<K>): Promise<void> {
    await this.ensureQueue(name);
    this.loops.push(this.loop(name, options.batchSize ?? 20, handler));
  }

  /** Stops fetching, lets running handlers finish, then closes pg-boss. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wakers of this.wakers.values()) for (const wake of wakers) wake();
    await Promise.all(this.loops);
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  private async ensureQueue(name: string): Promise<void> {
    if (this.queues.has(name)) return;
    await this.boss.createQueue(name, { name, policy: POLICIES.get(name) ?? 'standard' });
    this.queues.add(name);
  }

  private async loop<K extends JobName>(name: K, batchSize: number, handler: Handler<K>): Promise<void> {
    while (!this.stopping) {
      let jobs: PgBoss.Job<JobMap[K]>[] = [];
      try {
        jobs = await this.boss.fetch<JobMap[K]>(name, { batchSize });
      } catch (err) {
        this.logger.error({ err, queue: name }, 'job fetch failed');
      }
      if (jobs.length === 0) {
        await this.idle(name);
        continue;
      }
      const succeeded = await Promise.all(jobs.map((job) => this.run(name, job, handler)));
      const done = jobs.filter((_, i) => succeeded[i]).map((job) => job.id);
      if (done.length > 0) await this.boss.complete(name, done).catch((err: unknown) => this.logger.error({ err, queue: name }, 'job completion failed'));
    }
  }

  /** Runs one job; true when it succeeded (completed with its batch), false when failed here. */
  private async run<K extends JobName>(name: K, job: PgBoss.Job<JobMap[K]>, handler: Handler<K>): Promise<boolean> {
    try {
      await handler(job.data);
      return true;
    } catch (err) {
      this.logger.warn({ err, queue: name, jobId: job.id }, 'job failed; pg-boss retries it');
      await this.boss.fail(name, job.id, { message: err instanceof Error ? err.message : String(err) }).catch(() => undefined);
      return false;
    }
  }

  private idle(name: string): Promise<void> {
    return new Promise((resolve) => {
      const wakers = this.wakers.get(name) ?? new Set<() => void>();
      this.wakers.set(name, wakers);
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      wakers.add(done);
    });
  }

  private wake(name: string): void {
    for (const wake of this.wakers.get(name) ?? []) wake();
  }
}
