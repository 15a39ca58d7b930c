import type { MikroORM } from '@mikro-orm/postgresql';
import type { Caller } from '../../shared/scope';

/** One step of one attempt of a flow execution, to send. */
export interface FlowStepJob {
  companyId: string;
  executionId: string;
  attempt: number;
  step: number;
}

/** One tick of a campaign's dialer. */
export interface CampaignTickJob {
  companyId: string;
  campaignId: string;
}

/** The post-call analysis of an ended call. */
export interface AnalyzeCallJob {
  companyId: string;
  callId: string;
}

/** One run of an agent's test suite. */
export interface AgentTestRunJob {
  companyId: string;
  runId: string;
}

/**
 * Every durable job of the product: its name, its payload, its queue policy and how its
 * workers run (docs/architecture.md, "Jobs"). A handler is an idempotent service method
 * (delivery is at-least-once), called with a `Caller` for the company the job belongs to:
 * every payload names its company. The catalogue imports no service: the composition root
 * (`jobHandlers` in src/services/index.ts) binds each job to the method that handles it.
 */
export interface JobMap {
  /** Gives a company's waiting calls its free concurrent-call slots. */
  'call.dispatch': { companyId: string };
  /** Asks the provider to dial one dispatched call the sweep found unplaced (dispatch places the calls it picks). */
  'call.place': { companyId: string; callId: string };
  /** One step of one attempt of a flow execution. */
  'flow.step': FlowStepJob;
  /** Delivers a company's pending flow events (the outbox) to its subscribed flows. */
  'flow.events': { companyId: string };
  /** One tick of a campaign's dialer. */
  'campaign.tick': CampaignTickJob;
  /** The post-call analysis of an ended call (only with a language model). */
  'call.analyze': AnalyzeCallJob;
  /** Deletes a call's recording past RECORDING_RETENTION_DAYS, at the provider and on the call. */
  'recording.delete': { companyId: string; callId: string };
  /** Runs the pending scenarios of an agent test run as simulated calls (only with a language model). */
  'agent.test-run': AgentTestRunJob;
}

export type JobName = keyof JobMap;

/** How a job's queue and workers behave. */
export interface JobPolicy {
  /**
   * pg-boss `short` queue: at most one job per `singletonKey` waits at a time (more sends
   * while one waits are dropped), which coalesces "do this again" signals. Otherwise
   * `standard`, where `singletonKey` is a label.
   */
  coalesce: boolean;
  /** Attempts after the first when the handler throws. */
  retryLimit: number;
  /**
   * Seconds before the first retry (default 1); pg-boss's `retryBackoff` doubles it for each
   * later one, with jitter (a retry waits between half and all of `retryDelayS` x 2^retry).
   */
  retryDelayS?: number;
  /** Most jobs a worker fetches at once. */
  batchSize: number;
  /** Most handlers at once on one process (default: batchSize). */
  concurrency?: number;
}

const RETRY_LIMIT = 3;

/**
 * Queue policies by job, read when a queue is created: before any job is sent or worked.
 * Flow steps and analyses wait on customers' endpoints and the model, not on CPU: many run
 * at once.
 */
export const JOB_POLICIES: { readonly [K in JobName]: JobPolicy } = {
  // One waiting dispatch per company is enough: it gives every free slot at once.
  'call.dispatch': { coalesce: true, retryLimit: RETRY_LIMIT, batchSize: 1 },
  'call.place': { coalesce: false, retryLimit: RETRY_LIMIT, batchSize: 50 },
  // A step's own retries are the flow's; the job's cover crashes and database failures.
  'flow.step': { coalesce: false, retryLimit: 5, batchSize: 50, concurrency: 200 },
  // One waiting delivery per company is enough: it delivers every pending event of the company.
  'flow.events': { coalesce: true, retryLimit: RETRY_LIMIT, batchSize: 5 },
  // One waiting tick per campaign is enough: a tick does everything that is due.
  'campaign.tick': { coalesce: true, retryLimit: RETRY_LIMIT, batchSize: 5 },
  // A model that answers 429/5xx is asked again over about a quarter of an hour (15-30 s,
  // then doubling, five times), not in a burst; the last attempt records the failure.
  'call.analyze': { coalesce: false, retryLimit: 5, retryDelayS: 15, batchSize: 10, concurrency: 20 },
  // One waiting deletion per call is enough (the sweep finds it again while it waits); a
  // provider that fails is asked again, and the next sweeps queue what is still there.
  'recording.delete': { coalesce: true, retryLimit: RETRY_LIMIT, retryDelayS: 30, batchSize: 20 },
  // A run holds its worker for minutes of model calls (its scenarios side by side,
  // AGENT_TEST_CONCURRENCY): a few runs at once on one replica.
  'agent.test-run': { coalesce: false, retryLimit: RETRY_LIMIT, batchSize: 4 },
};

/** Which delivery of a job a handler runs. */
export interface JobAttempt {
  /** No retry follows if this one throws: the handler records a failure it would otherwise leave to a retry. */
  last: boolean;
}

export type JobHandler<K extends JobName> = (caller: Caller, data: JobMap[K], attempt: JobAttempt) => Promise<void>;

/** Each job's handler on these services; null where this process has no such work (no model: no analysis). */
export type JobHandlers = { readonly [K in JobName]: JobHandler<K> | null };

/** A job's caller: the company its data names, no user, a fresh EntityManager. */
export const jobCaller = (orm: MikroORM, companyId: string): Caller => ({ scope: { companyId, userId: null }, em: orm.em.fork() });
