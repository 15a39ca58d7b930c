import type { Logger } from '../../logger';
import type { Services } from '../index';
import { SimulatedTelephony } from '../telephony/simulated.telephony';
import type { JobQueue } from './job-queue';

/**
 * Registers every job's handler (each an idempotent service method) and starts the periodic
 * call sweep. Returns what stops the sweep; the queue's own stop() ends the workers.
 */
export async function startWorkers(jobs: JobQueue, services: Services, sweepMs: number, logger: Logger): Promise<() => void> {
  const { lifecycle, provider } = services;
  await jobs.work('call.dispatch', { batchSize: 1 }, ({ companyId }) => lifecycle.dispatch(companyId));
  await jobs.work('call.place', { batchSize: 50 }, ({ callId }) => lifecycle.place(callId));
  if (provider instanceof SimulatedTelephony) {
    await jobs.work('telephony.simulated.step', { batchSize: 100 }, (job) => lifecycle.advanceSimulated(provider, job));
  }
  const sweeper = setInterval(() => {
    lifecycle.sweep().catch((err: unknown) => logger.error({ err }, 'call sweep failed'));
  }, sweepMs);
  return () => clearInterval(sweeper);
}
