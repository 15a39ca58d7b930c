import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { inTransaction } from '../../db/transaction';
import type { ExecutionStatus, StepDefinition } from '../../entities/webhook-execution.entity';
import type { Clock } from '../shared/clock';
import { ConflictError, NotFoundError, PreconditionError } from '../shared/errors';
import { createUnderKey } from '../platform/idempotency.service';
import { type TriggerInput, triggerInput } from './flow-execution.input';
import { type FlowStepJob, jobCaller, JOB_POLICIES } from '../platform/jobs/job-catalogue';
import type { JobQueue } from '../platform/jobs/job-queue';
import { jobSql } from '../platform/jobs/job-sql';
import { type Logger, withLogFields } from '../../logger';
import { alone, type ViewReads, type Within } from '../../db/statements';
import { parseId } from '../shared/records';
import type { Caller } from '../shared/scope';
import { parseInput } from '../shared/validation';
import type { ExecutionView } from './flow-execution.contract';
import type { ExecutionEvents } from './execution-events';
import {
  type Claim,
  claimStep,
  type ExecutionChange,
  type ExecutionState,
  failExecution,
  finishStep,
  insertExecution,
  insertSkipped,
  type LocalStep,
  type StartedExecution,
  type StoredRun,
  takeOverdueLocalSteps,
  triggerRefusal,
} from './execution.store';
import { allSucceeded, bodyScope, eventBody, extractVariables, nextAction, retryPlan, variableScope } from './flow-plan';
import type { StepExecutor, StepOutcome } from './step-executor';
import { openPredefined, secretValues } from './flow-secrets';
import type { SecretBox } from '../shared/secret-box';
import type { OperationLimits } from '../platform/rate-limit.service';

export const FLOW_STEP_JOB = 'flow.step';

export interface FlowRunnerDeps {
  orm: MikroORM;
  /** The pool the engine's hot statements run on outside transactions (`hotStatement`). */
  reads: ViewReads;
  jobs: JobQueue;
  clock: Clock;
  executor: StepExecutor;
  events: ExecutionEvents;
  logger: Logger;
  /** Decrypts the flow's signing secret and secret variables as a step uses them. */
  secrets: SecretBox;
  /**
   * How long past its timeout a step this process sends itself may go unrecorded before the
   * sweep queues it as a job: the same margin as a job's (JOB_EXPIRY_S).
   */
  localGraceS: number;
}

/** Most steps one process sends itself at once; past that, steps go to the job queue. */
const LOCAL_STEPS = JOB_POLICIES['flow.step'].concurrency ?? JOB_POLICIES['flow.step'].batchSize;

/** Most overdue local steps one pass of the sweep queues. */
const SWEEP_BATCH = 500;

/** Why a trigger is refused, as the error each surface maps. */
const REFUSALS = {
  not_found: () => new NotFoundError('Webhook'),
  stopped: () => new ConflictError('Webhook flow is stopped: it refuses triggers until its status is running'),
  no_steps: () => new PreconditionError('Webhook flow has no steps to run'),
};

/**
 * The flow engine: triggers executions and runs their steps (docs/flows.md, "Running it").
 * A step due now is sent by the process that stored it, at once, while that process
 * works on jobs and has room: the execution's row holds the step as local, with a deadline,
 * and the sweep queues it as a job should the process die first. Other steps (delayed
 * retries, a process without room or without workers) are durable jobs. Every state change
 * is stored together with what continues from it, so a crash or restart loses nothing; a
 * step already finished in an attempt is never sent again.
 */
export class FlowRunner {
  static readonly limits = { trigger: 'flow-trigger' } as const satisfies OperationLimits<FlowRunner>;

  /** Steps this process is sending itself. */
  private readonly local = new Set<Promise<void>>();
  private localOpen = true;

  constructor(private readonly deps: FlowRunnerDeps) {}

  /**
   * Starts an execution of one of the caller's flows with `input.variables`; answers its
   * view: `in_progress` when this process sends its first step at once, `scheduled` when a
   * job will. Refuses a stopped flow (ConflictError) and a flow without steps. `args`, a
   * flow tool's arguments (from a language model), fill only the body, and only under names
   * nothing else gives (`bodyScope`).
   */
  async trigger(caller: Caller, flowId: string, input: TriggerInput | undefined, args: Record<string, unknown> | null = null): Promise<ExecutionView> {
    const { execution, announce } = await this.start(caller, alone, flowId, input, args);
    announce();
    return execution;
  }

  /**
   * `trigger`, where the caller says (`on`). `within(tx)`: the execution (and, when this
   * process will not send its first step itself, that step's job) is written in the caller's
   * transaction, and `announce` (publish its status; send the first step, or wake the
   * workers) is for after it commits. `alone`: the insert alone, or the insert and the job in
   * one transaction of its own.
   */
  async start(caller: Caller, on: Within, flowId: string, input: TriggerInput | undefined, args: Record<string, unknown> | null = null): Promise<{ execution: ExecutionView; announce: () => void }> {
    const { variables } = parseInput(triggerInput, input ?? {});
    const { em, scope } = caller;
    const id = parseId(flowId);
    const local = this.hasRoom();
    if (!local) await this.deps.jobs.prepare(FLOW_STEP_JOB);
    const insert = async (at: Within) => {
      const created = await insertExecution(at, this.deps.reads, { companyId: scope.companyId, flowId: id, variables, args, localGraceS: local ? this.deps.localGraceS : null }, this.deps.clock.now());
      if (!created) throw REFUSALS[await triggerRefusal(at.tx ?? em, scope.companyId, id)]();
      return created;
    };
    const ids = (created: StartedExecution) => [created.view.id];
    // The insert alone is one atomic statement: a transaction is needed only for the job beside it, or the key's link (createUnderKey).
    const { view, local: claim } = local
      ? await createUnderKey(caller, on, insert, ids)
      : await inTransaction(em, on, (tx) =>
          createUnderKey(
            caller,
            tx,
            async (keyed) => {
              const created = await insert(keyed);
              const first = created.definition.steps[0];
              await this.enqueue(tx.tx, { companyId: scope.companyId, executionId: created.view.id, attempt: 1, step: first.stepNumber }, first, 0);
              return created;
            },
            ids,
          ),
        );
    const announce = () => {
      this.publish({ companyId: scope.companyId, flowId: id, id: view.id }, view.status);
      if (claim) this.runLocally({ companyId: scope.companyId, executionId: view.id, attempt: 1, step: claim.run.stepNumber }, claim);
      else this.deps.jobs.wake(FLOW_STEP_JOB);
    };
    return { execution: view, announce };
  }

  /**
   * Queues as jobs the local steps whose deadline passed (their process died or lost them),
   * on any worker replica: the durable half of steps sent locally.
   */
  async sweep(): Promise<void> {
    await this.deps.jobs.prepare(FLOW_STEP_JOB);
    const taken = await this.deps.orm.em.fork().transactional(async (tx) => {
      const overdue = await takeOverdueLocalSteps(tx, SWEEP_BATCH);
      for (const { timeout, ...job } of overdue) await this.deps.jobs.send(FLOW_STEP_JOB, job, { db: jobSql(tx), workSeconds: timeout });
      return overdue.length;
    });
    if (taken > 0) this.deps.jobs.wake(FLOW_STEP_JOB);
  }

  /** Sends no more steps locally: they go to the job queue. Answers once the local ones in flight are stored. */
  async stopLocal(): Promise<void> {
    this.localOpen = false;
    await Promise.all(this.local);
  }

  /** Job handler: sends one step, records it, queues what comes next. Idempotent. */
  async runStep({ em }: Caller, job: FlowStepJob): Promise<void> {
    const claim = await claimStep(alone, this.deps.reads, job, this.deps.clock.now());
    if (claim) await this.send(em, job, claim);
  }

  /** Sends a claimed step, records it, queues what comes next. */
  private async send(em: EntityManager, job: FlowStepJob, claim: Claim): Promise<void> {
    const { state, run } = claim;
    if (state.flowDeleted && (state.status === 'scheduled' || state.status === 'in_progress')) {
      await failExecution(em, state.id, 'Webhook flow was deleted', this.deps.clock.now());
      this.publish(state, 'failed');
      return;
    }
    if (!run) return;
    if (claim.started) this.publish(state, 'in_progress');
    const { secrets } = this.deps;
    const definition = { ...state.definition!, predefinedVariables: openPredefined(state.definition!.predefinedVariables, secrets) };
    const step = definition.steps.find((s) => s.stepNumber === job.step)!;
    const scope = variableScope(definition, state.variables, state.runs);
    const outcome = await this.deps.executor.run({
      executionId: state.id,
      step,
      scope,
      bodyScope: bodyScope(definition, scope, state.arguments),
      defaultBody: eventBody(state.variables),
      secret: secrets.open(state.secret),
      masked: secretValues(definition.predefinedVariables),
    });
    await this.finish(em, state, run, outcome);
  }

  /**
   * Stores the finished step with what follows, in one transaction: skipped steps, then the
   * next step's job, or a retry attempt's delayed job, or the final status. Writes nothing
   * when another worker took the step over meanwhile.
   */
  private async finish(em: EntityManager, state: ExecutionState, run: StoredRun, outcome: StepOutcome): Promise<void> {
    const definition = state.definition!;
    const now = this.deps.clock.now();
    const extracted = outcome.status === 'success' && outcome.view ? extractVariables(definition, run.stepNumber, outcome.view) : {};
    const runs = [...state.runs.filter((r) => r.id !== run.id), { ...run, status: outcome.status, extracted, error: outcome.error, retryable: outcome.retryable }];
    const next = nextAction(definition, runs, state.attemptNumber);
    const { skipped } = next;
    for (const { stepNumber, error } of skipped) runs.push({ id: '', version: 1, attemptNumber: state.attemptNumber, stepNumber, status: 'skipped', extracted: {}, error, retryable: true });
    const { change, queued } = this.decide(state, runs, next, now);
    const local: LocalStep | null = queued && queued.delayMs === 0 && this.hasRoom() ? { stepNumber: queued.step.stepNumber, deadlineS: queued.step.timeout + this.deps.localGraceS } : null;
    const job = queued && !local ? queued : null;
    const { view: _view, ...logged } = outcome;
    const finished = (at: Within) => finishStep(at, this.deps.reads, state, run, { ...logged, finishedAt: now, extracted }, { ...change, local });
    // finishStep alone is one atomic statement: a transaction is needed only when more follows.
    const recorded =
      job || skipped.length > 0
        ? await inTransaction(em, alone, async (tx) => {
            if (!(await finished(tx))) return false;
            await insertSkipped(tx.tx, state.id, state.attemptNumber, skipped, now);
            if (job) await this.enqueue(tx.tx, { companyId: state.companyId, executionId: state.id, attempt: change.attemptNumber, step: job.step.stepNumber }, job.step, job.delayMs);
            return true;
          })
        : await finished(alone);
    if (!recorded) return;
    if (change.status !== state.status) this.publish(state, change.status);
    if (local) this.runLocally({ companyId: state.companyId, executionId: state.id, attempt: change.attemptNumber, step: local.stepNumber });
    else if (job && job.delayMs === 0) this.deps.jobs.wake(FLOW_STEP_JOB);
  }

  /** What the execution becomes after a step: still running, succeeded, retried later, or failed. */
  private decide(state: ExecutionState, runs: StoredRun[], next: ReturnType<typeof nextAction>, now: Date) {
    const definition = state.definition!;
    const keep: Omit<ExecutionChange, 'local'> = { status: 'in_progress', attemptNumber: state.attemptNumber, nextRetryAt: null, finishedAt: null, errorMessage: null };
    if (next.kind === 'run') return { change: keep, queued: { step: next.step, delayMs: 0 } };
    if (allSucceeded(definition, runs)) return { change: { ...keep, status: 'success' as const, finishedAt: now }, queued: null };
    const failed = runs.find((r) => r.attemptNumber === state.attemptNumber && r.stepNumber === next.failedStep);
    const errorMessage = failed ? `Step ${failed.stepNumber} failed: ${failed.error}` : 'A step did not succeed';
    const retry = retryPlan(definition, runs, state.attemptNumber);
    const first = retry ? nextAction(definition, runs, state.attemptNumber + 1) : null;
    if (!retry || first?.kind !== 'run') return { change: { ...keep, status: 'failed' as const, finishedAt: now, errorMessage }, queued: null };
    const nextRetryAt = new Date(now.getTime() + retry.delayMs);
    const change = { ...keep, status: 'scheduled' as const, attemptNumber: state.attemptNumber + 1, nextRetryAt, errorMessage };
    return { change, queued: { step: first.step, delayMs: retry.delayMs } };
  }

  /** True when this process may send a step itself: it works on jobs, is not stopping, and has room. */
  private hasRoom(): boolean {
    return this.localOpen && this.deps.jobs.working && this.local.size < LOCAL_STEPS;
  }

  /**
   * Sends a step stored as local, on this process, as its job would: with the claim its
   * trigger's statement made, or with the job's claim (either way a step taken over by the
   * sweep's job is not recorded twice: the takeover bumps the run's version). A failure is
   * left to the sweep, which queues the step once its deadline passes.
   */
  private runLocally(job: FlowStepJob, claim?: Claim): void {
    const fields = { company_id: job.companyId, flow_execution_id: job.executionId, flow_step: job.step };
    const caller = jobCaller(this.deps.orm, job.companyId);
    const work = () => (claim ? this.send(caller.em, job, claim) : this.runStep(caller, job));
    const running: Promise<void> = withLogFields(fields, work)
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'local flow step failed; the flow step sweep queues it once overdue'))
      .finally(() => this.local.delete(running));
    this.local.add(running);
  }

  /** Queues a step's job in the transaction open on `tx`. */
  private enqueue(tx: EntityManager, job: FlowStepJob, step: StepDefinition, delayMs: number): Promise<void> {
    return this.deps.jobs.send(FLOW_STEP_JOB, job, { db: jobSql(tx), delayMs, workSeconds: step.timeout });
  }

  private publish(execution: { companyId: string; flowId: string; id: string }, status: ExecutionStatus): void {
    this.deps.events.executionUpdated({ companyId: execution.companyId, flowId: execution.flowId, executionId: execution.id, status });
  }
}
