import type { Services } from '../index';
import { SimulatedTelephony } from '../telephony/simulated.telephony';
import type { JobQueue } from './job-queue';

/** Registers every job's handler: each an idempotent service method. */
export async function startWorkers(jobs: JobQueue, services: Services): Promise<void> {
  const { lifecycle, provider } = services;
  await jobs.work('call.dispatch', { batchSize: 10 }, ({ companyId }) => lifecycle.dispatch(companyId));
  await jobs.work('call.place', { batchSize: 50 }, ({ callId }) => lifecycle.place(callId));
  if (provider instanceof SimulatedTelephony) {
    await jobs.work('telephony.simulated.step', { batchSize: 100 }, (job) => lifecycle.advanceSimulated(provider, job));
  }
}
