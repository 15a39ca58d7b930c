import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import { CAMPAIGN_TICK_JOB } from '../campaigns/campaign-dialer.service';
import { FLOW_EVENTS_JOB } from '../flows/flow-events';
import { ANALYZE_CALL_JOB } from '../conversation/post-call-analysis.service';
import { FLOW_STEP_JOB } from '../flows/flow-runner';
import type { Services } from '../index';
import type { Caller } from '../scope';
import { SIMULATED_STEP_JOB } from '../telephony/simulated.telephony';
import type { JobQueue } from './job-queue';

/** A job's caller: the company named in its data, no user, a fresh EntityManager. */
const jobCaller = (orm: MikroORM, companyId: string): Caller => ({ scope: { companyId, userId: null }, em: orm.em.fork() });

export interface WorkerOptions {
  /** How often the call sweep runs (timeouts, stranded calls). */
  sweepMs: number;
  /** How often the campaign sweep runs (attempts due, ticks lost). */
  campaignSweepMs: number;
  logger: Logger;
}

/**
 * Registers every job handler on this process (each an idempotent service method) and starts
 * the periodic call sweep. Returns what stops the sweep; the queue's own stop() ends the
 * workers. Flow steps wait on customers' endpoints, not on CPU: many run at once.
 */
export async function startWorkers(jobs: JobQueue, services: Services, orm: MikroORM, options: WorkerOptions): Promise<() => void> {
  const { lifecycle, simulated, flows, flowEvents, dialer, analysis } = services;
  await jobs.work('call.dispatch', { batchSize: 1 }, ({ companyId }) => lifecycle.dispatch(companyId));
  await jobs.work('call.place', { batchSize: 50 }, ({ companyId, callId }) => lifecycle.place({ id: callId, companyId }));
  // Simulated calls run on a Twilio deployment too: simulate-inbound.
  await jobs.work(SIMULATED_STEP_JOB, { batchSize: 100 }, (job) => lifecycle.advanceSimulated(simulated, job));
  await jobs.work(FLOW_STEP_JOB, { batchSize: 50, concurrency: 200 }, (job) => flows.runStep(jobCaller(orm, job.companyId), job));
  await jobs.work(CAMPAIGN_TICK_JOB, { batchSize: 5 }, (job) => dialer.tick(job));
  await jobs.work(FLOW_EVENTS_JOB, { batchSize: 5 }, (job) => flowEvents.deliver(job));
  // Each analysis waits on the model, not on CPU: several run at once.
  if (analysis) await jobs.work(ANALYZE_CALL_JOB, { batchSize: 10, concurrency: 20 }, (job) => analysis.analyze(job));
  const sweepers = [
    setInterval(() => {
      lifecycle.sweep().catch((err: unknown) => options.logger.error({ err }, 'call sweep failed'));
    }, options.sweepMs),
    setInterval(() => {
      dialer.sweep().catch((err: unknown) => options.logger.error({ err }, 'campaign sweep failed'));
      flowEvents.sweep().catch((err: unknown) => options.logger.error({ err }, 'flow event sweep failed'));
      services.idempotency.sweep(orm.em.fork()).catch((err: unknown) => options.logger.error({ err }, 'idempotency key sweep failed'));
    }, options.campaignSweepMs),
  ];
  return () => sweepers.forEach(clearInterval);
}
