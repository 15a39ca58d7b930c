import { OptimisticLockError, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookExecution, WebhookFlow, WebhookStepRun } from '../../entities';
import type { StepDefinition } from '../../entities/webhook-execution.entity';
import type { Clock } from '../clock';
import { ConflictError, PreconditionError } from '../errors';
import { triggerInput } from '../input/webhook-execution.input';
import type { JobQueue } from '../jobs/job-queue';
import { jobSql } from '../jobs/job-sql';
import { findOwned, parseId } from '../records';
import type { Caller } from '../scope';
import { parseInput } from '../validation';
import type { ExecutionEvents } from './execution-events';
import { allSucceeded, extractVariables, nextAction, retryPlan, snapshot, variableScope } from './flow-plan';
import type { StepExecutor, StepOutcome } from './step-executor';

/** One step of one attempt of an execution, to send. */
export interface FlowStepJob {
  companyId: string;
  executionId: string;
  attempt: number;
  step: number;
}

declare module '../jobs/job-queue' {
  interface JobMap {
    'flow.step': FlowStepJob;
  }
}

export const FLOW_STEP_JOB = 'flow.step';

export interface FlowRunnerDeps {
  jobs: JobQueue;
  clock: Clock;
  executor: StepExecutor;
  events: ExecutionEvents;
}

interface Loaded {
  execution: WebhookExecution;
  runs: WebhookStepRun[];
  step: StepDefinition;
  secret: string;
  flowDeleted: boolean;
}

/** Seconds a step job may run past its step `timeout` before pg-boss hands it to another worker. */
const EXPIRY_MARGIN_SECONDS = 60;

/**
 * The flow engine: triggers executions and runs them on durable jobs, one job per step
 * sent. Every state change is stored together with the job that continues from it, so a
 * crash or restart loses nothing; a step already finished in an attempt is never sent again.
 */
export class FlowRunner {
  constructor(private readonly deps: FlowRunnerDeps) {}

  /**
   * Starts an execution of one of the caller's flows with `input.variables`; answers it
   * `scheduled`. Refuses a stopped flow (ConflictError) and a flow without steps.
   */
  async trigger(caller: Caller, flowId: unknown, input: unknown): Promise<WebhookExecution> {
    const { variables } = parseInput(triggerInput, input ?? {});
    const where = { id: parseId(flowId), company: caller.scope.companyId, deletedAt: null };
    const flow = await findOwned(caller.em, WebhookFlow, 'Webhook', where, ['steps']);
    if (flow.status === 'stopped') throw new ConflictError('Webhook flow is stopped: it refuses triggers until its status is running');
    const definition = snapshot(flow);
    const first = definition.steps[0];
    if (!first) throw new PreconditionError('Webhook flow has no steps to run');
    await this.deps.jobs.prepare(FLOW_STEP_JOB);
    const { em } = caller;
    const execution = em.create(WebhookExecution, { company: caller.scope.companyId, flow: flow.id, variables, definition });
    await inTransaction(em, () => this.enqueue(em, execution, first, 0));
    this.deps.jobs.wake(FLOW_STEP_JOB);
    this.publish(execution);
    return execution;
  }

  /** Job handler: sends one step, records it, queues what comes next. Idempotent. */
  async runStep(caller: Caller, job: FlowStepJob): Promise<void> {
    const loaded = await this.load(caller, job);
    if (!loaded) return;
    if (loaded.flowDeleted) return this.abandon(caller.em, loaded.execution);
    const run = await this.claim(caller.em, loaded);
    if (!run) return;
    const { execution, step, secret } = loaded;
    const scope = variableScope(execution.definition!, execution.variables, loaded.runs);
    const outcome = await this.deps.executor.run({ executionId: execution.id, step, scope, secret });
    this.finishRun(run, execution, outcome);
    const runs = [...loaded.runs.filter((r) => r !== run), run];
    try {
      await this.advance(caller.em, execution, runs);
    } catch (err) {
      if (err instanceof OptimisticLockError) return; // another worker took the step over and records it
      throw err;
    }
  }

  /** The execution and runs a job needs, or null when the job is stale or already done. */
  private async load({ scope, em }: Caller, job: FlowStepJob): Promise<Loaded | null> {
    const execution = await em.findOne(
      WebhookExecution,
      { id: job.executionId, company: scope.companyId },
      { populate: ['definition', 'flow', 'flow.secret'] },
    );
    const active = execution?.status === 'scheduled' || execution?.status === 'in_progress';
    if (!execution?.definition || !active || execution.attemptNumber !== job.attempt) return null;
    const step = execution.definition.steps.find((s) => s.stepNumber === job.step);
    const runs = await em.find(WebhookStepRun, { execution: execution.id });
    const done = runs.some((r) => r.attemptNumber === job.attempt && r.stepNumber === job.step && r.status !== 'running');
    if (!step || done) return null;
    const flow = execution.flow.getEntity();
    return { execution, runs, step, secret: flow.secret, flowDeleted: flow.deletedAt !== null };
  }

  /**
   * Marks the step `running` (and the execution `in_progress` at an attempt's first step).
   * Null when another worker holds the same step: the unique key lets one claim it.
   */
  private async claim(em: EntityManager, { execution, runs, step }: Loaded): Promise<WebhookStepRun | null> {
    const now = this.deps.clock.now();
    const starting = execution.status === 'scheduled';
    if (starting) Object.assign(execution, { status: 'in_progress', executedAt: now });
    const attemptNumber = execution.attemptNumber;
    const run = runs.find((r) => r.attemptNumber === attemptNumber && r.stepNumber === step.stepNumber)
      ?? em.create(WebhookStepRun, { execution, attemptNumber, stepNumber: step.stepNumber });
    run.startedAt = now;
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) return null;
      throw err;
    }
    if (starting) this.publish(execution);
    return run;
  }

  private finishRun(run: WebhookStepRun, execution: WebhookExecution, outcome: StepOutcome): void {
    const success = outcome.status === 'success' && outcome.view !== null;
    Object.assign(run, {
      status: outcome.status,
      tries: outcome.tries,
      tryErrors: outcome.tryErrors,
      error: outcome.error,
      request: outcome.request,
      response: outcome.response,
      durationMs: outcome.durationMs,
      finishedAt: this.deps.clock.now(),
      extracted: success ? extractVariables(execution.definition!, run.stepNumber, outcome.view!) : {},
    });
  }

  /**
   * Stores the finished step with what follows, in one transaction: skipped steps, then the
   * next step's job, or a retry attempt's delayed job, or the final status.
   */
  private async advance(em: EntityManager, execution: WebhookExecution, runs: WebhookStepRun[]): Promise<void> {
    const definition = execution.definition!;
    const before = execution.status;
    const now = this.deps.clock.now();
    const next = nextAction(definition, runs, execution.attemptNumber);
    for (const stepNumber of next.skipped) {
      const dependency = definition.steps.find((s) => s.stepNumber === stepNumber)!.dependsOnStep;
      const error = `Skipped: step ${dependency} did not succeed`;
      runs.push(em.create(WebhookStepRun, { execution, attemptNumber: execution.attemptNumber, stepNumber, status: 'skipped', error, finishedAt: now }));
    }
    let queued: { step: StepDefinition; delayMs: number } | null = null;
    if (next.kind === 'run') queued = { step: next.step, delayMs: 0 };
    else if (allSucceeded(definition, runs)) Object.assign(execution, { status: 'success', finishedAt: now, errorMessage: null });
    else queued = this.failAttempt(execution, runs, next.failedStep, now);
    await inTransaction(em, async () => {
      if (queued) await this.enqueue(em, execution, queued.step, queued.delayMs);
    });
    if (queued && queued.delayMs === 0) this.deps.jobs.wake(FLOW_STEP_JOB);
    if (execution.status !== before) this.publish(execution);
  }

  /** A failed attempt: another one after the flow's retry delay, or the execution fails. */
  private failAttempt(execution: WebhookExecution, runs: WebhookStepRun[], failedStep: number | null, now: Date) {
    const definition = execution.definition!;
    const failed = runs.find((r) => r.attemptNumber === execution.attemptNumber && r.stepNumber === failedStep);
    const errorMessage = failed ? `Step ${failed.stepNumber} failed: ${failed.error}` : 'A step did not succeed';
    const retry = retryPlan(definition, execution.attemptNumber);
    if (!retry) {
      Object.assign(execution, { status: 'failed', finishedAt: now, errorMessage });
      return null;
    }
    const attemptNumber = execution.attemptNumber + 1;
    const nextRetryAt = new Date(now.getTime() + retry.delayMs);
    Object.assign(execution, { status: 'scheduled', attemptNumber, nextRetryAt, errorMessage });
    const first = nextAction(definition, runs, attemptNumber);
    return first.kind === 'run' ? { step: first.step, delayMs: retry.delayMs } : null;
  }

  /** The flow was deleted while the execution ran: it ends failed, without retries. */
  private async abandon(em: EntityManager, execution: WebhookExecution): Promise<void> {
    Object.assign(execution, { status: 'failed', finishedAt: this.deps.clock.now(), errorMessage: 'Webhook flow was deleted' });
    await em.flush();
    this.publish(execution);
  }

  private enqueue(em: EntityManager, execution: WebhookExecution, step: StepDefinition, delayMs: number): Promise<void> {
    const job = { companyId: execution.company.id, executionId: execution.id, attempt: execution.attemptNumber, step: step.stepNumber };
    const expireInSeconds = step.timeout + EXPIRY_MARGIN_SECONDS;
    return this.deps.jobs.send(FLOW_STEP_JOB, job, { db: jobSql(em), delayMs, expireInSeconds, retryLimit: 5 });
  }

  private publish(execution: WebhookExecution): void {
    const { company, flow, id: executionId, status } = execution;
    this.deps.events.executionUpdated({ companyId: company.id, flowId: flow.id, executionId, status });
  }
}

/** Runs `work` and flushes `em` in one transaction. */
async function inTransaction(em: EntityManager, work: () => Promise<void>): Promise<void> {
  await em.begin();
  try {
    await work();
    await em.commit();
  } catch (err) {
    await em.rollback();
    throw err;
  }
}
