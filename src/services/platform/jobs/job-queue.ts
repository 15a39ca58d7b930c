import type pg from 'pg';
import PgBoss from 'pg-boss';
import { withSessionLock } from '../../../db/side-pool';
import { type Logger, withLogFields } from '../../../logger';
import { SYSTEM_TIMERS, type Timers } from '../../shared/clock';
import { type JobAttempt, JOB_POLICIES, type JobMap, type JobName } from './job-catalogue';

/**
 * PostgreSQL ended the session because it is shutting down or an administrator terminated it
 * (SQLSTATE 57P01, admin_shutdown). pg-boss then reports it for its idle connections, which it
 * replaces once the server is back: news, not a failure (a Ctrl-C in a terminal stops the embedded
 * PostgreSQL alongside the service; docs/operations.md, "Stopping"). Work that fails for it is
 * reported where it fails.
 */
const closedByServerShutdown = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '57P01';

export interface SendOptions {
  /** Not before this moment. */
  startAfter?: Date;
  /** Not before this many milliseconds from now (the database's now). */
  delayMs?: number;
  /**
   * pg-boss `singletonKey`. It deduplicates only on the queues the job catalogue makes
   * `coalesce`; on the others (pg-boss `standard`) it is a label.
   */
  singletonKey?: string;
  /**
   * How long the handler may rightly run on this job (a flow step: its timeout). The job is
   * presumed dead, and handed to another worker, `expiryS` after that.
   */
  workSeconds?: number;
  /**
   * Runs the insert on this connection instead of pg-boss's own, so that the job is written
   * in the caller's transaction (see `jobSql`). Local workers are then not woken: call
   * `wake(name)` after the commit.
   */
  db?: PgBoss.Db;
}

export interface JobQueueOptions {
  /** How often an idle worker looks for jobs queued by other replicas. */
  pollMs: number;
  /** Connections of pg-boss's own pool (`JOB_POOL_MAX`); 10 when not given. */
  poolMax?: number;
  /**
   * Seconds a job may run (past its `workSeconds`) before pg-boss presumes its worker dead
   * and hands it to another: how soon the jobs of a killed replica run again.
   */
  expiryS: number;
  /**
   * pg-boss's maintenance interval: how often expired jobs are looked for, by one replica
   * of all. A dead worker's job runs again within `expiryS` plus twice this (a replica whose
   * turn comes a moment early skips it) plus a retry pause of 1 to 2 s.
   */
  maintenanceS: number;
  /** The timers that close the coalescing windows (`send`): a test's fake clock; the process's when not given. */
  coalesceTimers?: Timers;
}

/** Session advisory lock under which queues are created, by every replica (key space: hashtext). */
const QUEUE_CREATION_LOCK = 'switchboard:pgboss-create-queue';

/** How long a finished job may wait to be marked completed with others. */
const COMPLETION_DELAY_MS = 20;

/**
 * On a coalescing queue, the sends of one key within this window after a send become one
 * trailing send at its end (see `send`).
 */
const COALESCE_MS = 20;

/** A coalescing queue's key sent within the last COALESCE_MS: the send owed at the window's end, if more came. */
interface CoalesceWindow {
  owed: (() => Promise<void>) | null;
  timer: unknown;
}

type Handler<K extends JobName> = (data: JobMap[K], attempt: JobAttempt) => Promise<void>;

/**
 * Durable jobs on pg-boss (tables in the `pgboss` schema of our database). Workers run their
 * own fetch loop: up to `concurrency` handlers run at once, and a slot freed is refilled at
 * once while work remains, so one slow job never holds up the others; an idle worker sleeps
 * `pollMs`, or less when this process queues a job for it.
 */
export class JobQueue {
  private readonly loops: Promise<void>[] = [];
  /** Worker loops still running: each `work()` starts one, which ends only at stop() or on a bug. */
  private liveLoops = 0;
  private readonly wakers = new Map<string, Set<() => void>>();
  /** Queues woken while their worker was busy: its next idle() returns at once. */
  private readonly pendingWakes = new Set<string>();
  /** Queues known to exist: read once at start, then each one this process creates. */
  private readonly queues = new Set<string>();
  /** Finished jobs not yet marked completed, by queue: completed in bulk. */
  private readonly completions = new Map<string, string[]>();
  private completionTimer: NodeJS.Timeout | null = null;
  /** The bulk completion under way, which stop() waits for. */
  private completing: Promise<void> = Promise.resolve();
  private stopping = false;
  /** Coalescing queues' keys sent within the last COALESCE_MS, by queue and key. */
  private readonly windows = new Map<string, CoalesceWindow>();

  private constructor(
    private readonly boss: PgBoss,
    private readonly sidePool: pg.Pool,
    private readonly options: JobQueueOptions,
    private readonly logger: Logger,
  ) {}

  private get coalesceTimers(): Timers {
    return this.options.coalesceTimers ?? SYSTEM_TIMERS;
  }

  /**
   * Starts pg-boss on a pool of its own (docs/architecture.md, Connections); `sidePool` only
   * holds the lock of queue creations.
   */
  static async start(connectionString: string, sidePool: pg.Pool, options: JobQueueOptions, logger: Logger): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString,
      schema: 'pgboss',
      max: options.poolMax ?? 10,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceS,
      schedule: false,
      application_name: 'switchboard-jobs',
    });
    boss.on('error', (err) => {
      if (closedByServerShutdown(err)) logger.info('job queue: the database closed a connection as it shut down');
      else logger.error({ err }, 'job queue error');
    });
    await boss.start();
    const queue = new JobQueue(boss, sidePool, options, logger);
    // One read for every queue that exists (all of them after `admin migrate`), not one per queue.
    for (const { name } of await boss.getQueues()) queue.queues.add(name);
    return queue;
  }

  /**
   * Queues a job. Call `prepare(name)` first when sending within a transaction (`db`): the
   * job then goes through pg-boss's many-job insert, whose statement `jobSql` can bind.
   */
  async send<K extends JobName>(name: K, data: JobMap[K], options: SendOptions = {}): Promise<void> {
    if (JOB_POLICIES[name].coalesce && options.singletonKey !== undefined && !options.db && !options.delayMs && !options.startAfter) {
      return this.coalesce(name, options.singletonKey, () => this.insert(name, data, options));
    }
    return this.insert(name, data, options);
  }

  /**
   * A coalescing queue keeps one waiting job per key and drops the sends that find one: a
   * "do this again" signal. The first send of a key goes at once; the sends within
   * COALESCE_MS after it resolve at once and become one send at the window's end, so a job
   * is still queued after the last of them (what a burst of make-calls or call ends asks
   * for costs one insert per window instead of one each). A process that dies inside the
   * window loses that trailing send: the sweeps ask again (docs/architecture.md, "Jobs vs events").
   */
  private async coalesce(name: JobName, key: string, send: () => Promise<void>): Promise<void> {
    const id = `${name}\u0000${key}`;
    const window = this.windows.get(id);
    if (window) {
      window.owed = send;
      return;
    }
    const timer = this.coalesceTimers.setTimeout(() => {
      const owed = this.windows.get(id)?.owed;
      this.windows.delete(id);
      if (owed) void this.coalesce(name, key, owed).catch((err: unknown) => this.logger.error({ err, queue: name }, 'coalesced job send failed'));
    }, COALESCE_MS);
    this.windows.set(id, { owed: null, timer });
    await send();
  }

  /** Sends the trailing sends still owed (at stop). */
  private async flushWindows(): Promise<void> {
    const owed = [...this.windows.values()];
    this.windows.clear();
    for (const window of owed) {
      this.coalesceTimers.clearTimeout(window.timer);
      await window.owed?.().catch((err: unknown) => this.logger.error({ err }, 'coalesced job send failed'));
    }
  }

  private async insert<K extends JobName>(name: K, data: JobMap[K], options: SendOptions): Promise<void> {
    const delayMs = options.delayMs ?? (options.startAfter ? options.startAfter.getTime() - Date.now() : 0);
    const job = this.jobOptions(name, options);
    if (options.db) await this.boss.insert([{ name, data: data, ...job }], { db: options.db });
    else {
      await this.ensureQueue(name);
      await this.boss.send(name, data as object, job);
    }
    if (!options.db || delayMs > 0) setTimeout(() => this.wake(name), Math.max(0, delayMs)).unref();
  }

  /** Queues many jobs of one queue in one statement (one commit instead of one per job). */
  async sendMany<K extends JobName>(name: K, data: JobMap[K][]): Promise<void> {
    if (data.length === 0) return;
    await this.ensureQueue(name);
    await this.boss.insert(data.map((d) => ({ name, data: d, ...this.jobOptions(name, {}) })));
    this.wake(name);
  }

  /** A job's options as pg-boss stores them: `delayMs` counts from the database's now (pg-boss reads a bare number of seconds so). */
  private jobOptions(name: JobName, options: SendOptions): Omit<PgBoss.JobInsert, 'name' | 'data'> {
    return {
      startAfter: options.delayMs ? String(options.delayMs / 1000) : options.startAfter,
      singletonKey: options.singletonKey,
      retryLimit: JOB_POLICIES[name].retryLimit,
      retryDelay: JOB_POLICIES[name].retryDelayS ?? 1,
      retryBackoff: true,
      expireInSeconds: (options.workSeconds ?? 0) + this.options.expiryS,
    };
  }

  /** Makes sure the queue exists, so that a later send within a transaction can write to it. */
  async prepare(name: JobName): Promise<void> {
    await this.ensureQueue(name);
  }

  /** Makes sure every queue of the job catalogue exists (`admin migrate`: a release step, so that replicas start without creating any). */
  async prepareAll(): Promise<void> {
    for (const name of Object.keys(JOB_POLICIES) as JobName[]) await this.ensureQueue(name);
  }

  /** Tells this process's workers of `name` that jobs are ready (after a transactional send commits). */
  wake(name: JobName): void {
    const wakers = this.wakers.get(name);
    if (!wakers || wakers.size === 0) {
      this.pendingWakes.add(name);
      return;
    }
    for (const wake of wakers) wake();
  }

  /** Runs `handler` for every job of `name`, on this process, until stop(), as the job's policy says. */
  async work<K extends JobName>(name: K, handler: Handler<K>): Promise<void> {
    await this.ensureQueue(name);
    const { batchSize, concurrency = batchSize } = JOB_POLICIES[name];
    this.liveLoops += 1;
    this.loops.push(
      this.loop(name, batchSize, concurrency, handler).finally(() => {
        this.liveLoops -= 1;
      }),
    );
  }

  /** True while this process works on jobs: workers were started, none has ended, stop() not called. */
  get working(): boolean {
    return !this.stopping && this.loops.length > 0 && this.liveLoops === this.loops.length;
  }

  /** Stops fetching, lets running handlers finish, then closes pg-boss. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wakers of this.wakers.values()) for (const wake of wakers) wake();
    await Promise.all(this.loops);
    await this.flushWindows();
    await this.flushCompletions();
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  private async ensureQueue(name: JobName): Promise<void> {
    if (this.queues.has(name)) return;
    if (!(await this.boss.getQueue(name))) await this.createQueue(name);
    this.queues.add(name);
  }

  /**
   * pg-boss's create_queue inserts the queue's row, then alters tables that reference the
   * queue table: two at once (replicas starting together on a new database) deadlock, and a
   * replica fails to start. Creations take turns under a session advisory lock, held on a
   * connection of the side pool while pg-boss creates the queue on its own pool; once a queue
   * exists, create_queue changes nothing, so only first creations need it.
   */
  private async createQueue(name: JobName): Promise<void> {
    await withSessionLock(this.sidePool, QUEUE_CREATION_LOCK, () => this.boss.createQueue(name, { name, policy: JOB_POLICIES[name].coalesce ? 'short' : 'standard' }));
  }

  private async loop<K extends JobName>(name: K, batchSize: number, concurrency: number, handler: Handler<K>): Promise<void> {
    const running = new Set<Promise<void>>();
    while (!this.stopping) {
      const room = concurrency - running.size;
      if (room <= 0) {
        await Promise.race(running);
        continue;
      }
      const wanted = Math.min(batchSize, room);
      const jobs = await this.fetch(name, wanted);
      for (const job of jobs) {
        const run: Promise<void> = this.run(name, job, handler).finally(() => running.delete(run));
        running.add(run);
      }
      if (jobs.length < wanted) await this.idle(name);
    }
    await Promise.all(running);
  }

  private async fetch<K extends JobName>(name: K, batchSize: number): Promise<PgBoss.JobWithMetadata<JobMap[K]>[]> {
    try {
      return await this.boss.fetch<JobMap[K]>(name, { batchSize, includeMetadata: true });
    } catch (err) {
      this.logger.error({ err, queue: name }, 'job fetch failed');
      return [];
    }
  }

  /**
   * Runs one job; every line its handler logs carries the job's name and id and, when its
   * data names one, the company. Completion is batched across jobs, so it runs outside.
   */
  private async run<K extends JobName>(name: K, job: PgBoss.JobWithMetadata<JobMap[K]>, handler: Handler<K>): Promise<void> {
    const { companyId } = job.data as { companyId?: unknown };
    const fields = { job: name, job_id: job.id, ...(typeof companyId === 'string' && { company_id: companyId }) };
    const failed = await withLogFields(fields, async () => {
      try {
        await handler(job.data, { last: job.retryCount >= job.retryLimit });
        return null;
      } catch (err) {
        this.logger.warn({ err }, 'job failed; pg-boss retries it');
        return { err };
      }
    });
    if (!failed) this.complete(name, job.id);
    else await this.boss.fail(name, job.id, { message: failed.err instanceof Error ? failed.err.message : String(failed.err) }).catch(() => undefined);
  }

  /**
   * Marks a finished job completed within COMPLETION_DELAY_MS, together with the others
   * finished meanwhile: one statement for many jobs. Should the process die first, the job
   * runs again after its expiry, which idempotent handlers allow.
   */
  private complete(name: string, id: string): void {
    const ids = this.completions.get(name) ?? [];
    ids.push(id);
    this.completions.set(name, ids);
    this.completionTimer ??= setTimeout(() => void this.flushCompletions(), COMPLETION_DELAY_MS);
  }

  private flushCompletions(): Promise<void> {
    if (this.completionTimer) clearTimeout(this.completionTimer);
    this.completionTimer = null;
    const batches = [...this.completions];
    this.completions.clear();
    const done = Promise.all(
      batches.map(([name, ids]) => this.boss.complete(name, ids).catch((err: unknown) => this.logger.error({ err, queue: name }, 'job completion failed; the jobs run again after their expiry'))),
    );
    this.completing = Promise.all([this.completing, done]).then(() => undefined);
    return this.completing;
  }

  private idle(name: string): Promise<void> {
    if (this.pendingWakes.delete(name)) return Promise.resolve();
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
}
