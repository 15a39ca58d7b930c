import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../../logger';
import type { Services } from '../../index';
import { jobCaller, type JobHandler, type JobHandlers, type JobName, JOB_POLICIES } from './job-catalogue';
import type { JobQueue } from './job-queue';

export interface WorkerOptions {
  /** How often the call sweep runs (timeouts, stranded calls). */
  sweepMs: number;
  /** How often the campaign sweep runs (attempts due, ticks lost), and those of flow events and local flow steps, and the folds of the analytics rollups and the contact counts. */
  campaignSweepMs: number;
  logger: Logger;
}

/**
 * Works on every job of the catalogue this process has a handler for (`handlers`, bound by
 * the composition root), each handler called with the caller of the job's company, and starts
 * the periodic sweeps. Returns what stops the sweeps; the queue's own stop() ends the workers.
 */
export async function startWorkers(jobs: JobQueue, handlers: JobHandlers, services: Services, orm: MikroORM, options: WorkerOptions): Promise<() => void> {
  const work = async <K extends JobName>(name: K) => {
    const handler: JobHandler<K> | null = handlers[name];
    if (handler) await jobs.work(name, (data, attempt) => handler(jobCaller(orm, data.companyId), data, attempt));
  };
  for (const name of Object.keys(JOB_POLICIES) as JobName[]) await work(name);
  const { lifecycle, dialer, flows, flowEvents, idempotency, recordings, analytics, contacts } = services;
  const sweepers = [
    setInterval(() => {
      lifecycle.sweep().catch((err: unknown) => options.logger.error({ err }, 'call sweep failed'));
      recordings.sweep().catch((err: unknown) => options.logger.error({ err }, 'recording retention sweep failed'));
    }, options.sweepMs),
    setInterval(() => {
      dialer.sweep().catch((err: unknown) => options.logger.error({ err }, 'campaign sweep failed'));
      flowEvents.sweep().catch((err: unknown) => options.logger.error({ err }, 'flow event sweep failed'));
      flows.sweep().catch((err: unknown) => options.logger.error({ err }, 'flow step sweep failed'));
      idempotency.sweep(orm.em.fork()).catch((err: unknown) => options.logger.error({ err }, 'idempotency key sweep failed'));
      analytics.fold(orm.em.fork()).catch((err: unknown) => options.logger.error({ err }, 'analytics rollup fold failed'));
      contacts.sweep(orm.em.fork()).catch((err: unknown) => options.logger.error({ err }, 'contact count fold failed'));
    }, options.campaignSweepMs),
  ];
  return () => sweepers.forEach(clearInterval);
}
