import type { MikroORM } from '@mikro-orm/postgresql';
import type { Services } from '../index';
import type { Caller } from '../scope';
import { FLOW_STEP_JOB } from '../flows/flow-runner';
import type { JobQueue } from './job-queue';

/** A job's caller: the company named in its data, no user, a fresh EntityManager. */
const jobCaller = (orm: MikroORM, companyId: string): Caller => ({ scope: { companyId, userId: null }, em: orm.em.fork() });

/**
 * Registers every job handler on this process. Flow steps wait on customers' endpoints,
 * not on CPU: many run at once, fetched in batches.
 */
export async function startWorkers(jobs: JobQueue, services: Services, orm: MikroORM): Promise<void> {
  await jobs.work(FLOW_STEP_JOB, { batchSize: 50, concurrency: 200 }, (job) => services.flows.runStep(jobCaller(orm, job.companyId), job));
}
