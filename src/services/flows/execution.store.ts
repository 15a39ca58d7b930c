import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookExecution } from '../../entities';
import type { ExecutionStatus, FlowDefinition } from '../../entities/webhook-execution.entity';
import { viewOfStored } from '../shared/contract';
import { hotStatement, sharedStatement, type StoredView, type ViewReads, viewColumns, type Within } from '../../db/statements';
import { executionContract, type ExecutionView } from './flow-execution.contract';
import type { RecordKey } from '../shared/scope';
import type { RunRecord, Skip } from './flow-plan';
import type { StepOutcome } from './step-executor';

/**
 * The flow engine's reads and writes, in plain SQL. The engine's hot path runs a handful of
 * statements per step; through MikroORM's unit of work each one cost 1 to 3 ms of CPU
 * (measured; bench/flows.ts), here about 0.25 ms, which is what lets one process run
 * hundreds of executions a second. Reads for the API stay on the entities.
 */

export interface StoredRun extends RunRecord {
  id: string;
  version: number;
  error: string | null;
}

export interface ExecutionState {
  id: string;
  companyId: string;
  flowId: string;
  status: ExecutionStatus;
  attemptNumber: number;
  variables: Record<string, unknown>;
  /** A flow tool's arguments (the model's); null for other triggers. */
  arguments: Record<string, unknown> | null;
  definition: FlowDefinition | null;
  secret: string;
  flowDeleted: boolean;
  runs: StoredRun[];
}

/** A finished step as stored in its run: what was sent and received, and what it yielded. */
export type FinishedRun = Omit<StepOutcome, 'view'> & { finishedAt: Date; extracted: Record<string, unknown> };

/** The execution columns a step's end may change. */
export interface ExecutionChange {
  status: ExecutionStatus;
  attemptNumber: number;
  nextRetryAt: Date | null;
  finishedAt: Date | null;
  errorMessage: string | null;
  /** The next step, when this process sends it itself: held as local until its deadline. */
  local: LocalStep | null;
}

/** A step its process sends itself, and how long it may take before the sweep queues it as a job. */
export interface LocalStep {
  stepNumber: number;
  deadlineS: number;
}

/** The flow's steps and settings as one JSON value: the snapshot an execution runs (alias `f`). */
const DEFINITION_SQL = `jsonb_build_object(
  'steps', COALESCE((SELECT jsonb_agg(jsonb_build_object(
      'stepNumber', s.step_number, 'url', s.webhook_url, 'method', s.webhook_method,
      'webhookTimeout', s.webhook_timeout, 'retryLimit', s.retry_limit, 'timeout', s.timeout,
      'urlParams', s.webhook_url_params, 'headers', s.webhook_headers, 'body', s.webhook_body,
      'dependsOnStep', s.depends_on_step, 'successCondition', s.success_condition) ORDER BY s.step_number)
    FROM webhook_steps s WHERE s.flow_id = f.id AND s.deleted_at IS NULL), '[]'::jsonb),
  'variables', f.variables, 'predefinedVariables', f.predefined_variables,
  'maxRetries', f.max_retries, 'retryDelay', f.retry_delay, 'retryDelayUnit', f.retry_delay_unit)`;

/** An execution to insert, as the statement reads it. */
interface NewExecutionRow {
  id: string;
  flow_id: string;
  created_at: Date;
  variables: Record<string, unknown>;
  arguments: Record<string, unknown> | null;
  /** `scheduled` for a job to send the first step, `in_progress` when this process sends it (`grace` set). */
  status: ExecutionStatus;
  grace: number | null;
  started_at: Date;
  /** When this process sends the first step: its start; else null. */
  executed_at: Date | null;
  run_id: string;
}

/** An execution inserted: its stored view, the snapshot it runs, its flow's secret, and its local first step's run when it has one. */
type InsertedExecutionRow = StoredView<ExecutionView> & { definition: FlowDefinition; local_step: number | null; secret: string; run_id: string | null };

/**
 * Inserts executions of the company's flows, each with a snapshot of its flow, in one
 * statement shared by the triggers in flight (`sharedStatement`); within a transaction, the
 * one that queues the execution's first step (`grace` null: the execution is `scheduled`).
 * With `grace`, this process sends the first step itself: the statement then also claims that
 * step as `claimStep` would (the execution `in_progress`, the step's run `running`) and holds
 * it as local, due within the step's timeout plus `grace` seconds (see
 * `takeOverdueLocalSteps`). No row for a flow that cannot be triggered (see `triggerRefusal`).
 */
const INSERT_EXECUTIONS = sharedStatement<NewExecutionRow, InsertedExecutionRow>(
  'flow-executions-insert',
  (reads) => `WITH given AS (
     SELECT * FROM jsonb_to_recordset(?::jsonb)
       AS x(ord int, id uuid, flow_id uuid, created_at timestamptz, variables jsonb, arguments jsonb, status text, grace float8, started_at timestamptz, executed_at timestamptz, run_id uuid)
   ), flow AS (
     SELECT given.*, f.company_id, f.secret, ${DEFINITION_SQL} AS definition, first.step_number, first.timeout
     FROM given JOIN webhook_flows f ON f.id = given.flow_id
     CROSS JOIN LATERAL (SELECT s.step_number, s.timeout FROM webhook_steps s WHERE s.flow_id = f.id AND s.deleted_at IS NULL ORDER BY s.step_number LIMIT 1) first
     WHERE f.company_id = ?::uuid AND f.deleted_at IS NULL AND f.status <> 'stopped'
   ), execution AS (
     INSERT INTO webhook_executions (id, created_at, updated_at, company_id, flow_id, status, attempt_number, variables, arguments, definition, executed_at, local_step, local_until)
     SELECT id, created_at, created_at, company_id, flow_id, status, 1, variables, arguments, definition,
       executed_at, CASE WHEN grace IS NOT NULL THEN step_number END, now() + make_interval(secs => timeout + grace)
     FROM flow
     RETURNING ${viewColumns(reads, WebhookExecution, executionContract.view)}, definition, local_step
   ), run AS (
     INSERT INTO webhook_step_runs (id, created_at, updated_at, execution_id, attempt_number, step_number, status, started_at, try_errors, extracted, unresolved_variables, version)
     SELECT flow.run_id, flow.started_at, flow.started_at, e.id, 1, e.local_step, 'running', flow.started_at, '[]', '{}', '[]', 1
     FROM execution e JOIN flow ON flow.id = e.id WHERE e.local_step IS NOT NULL
     RETURNING id, execution_id
   )
   SELECT execution.*, flow.ord, flow.secret, run.id AS run_id
   FROM execution JOIN flow ON flow.id = execution.id LEFT JOIN run ON run.execution_id = execution.id`,
);

/**
 * An execution just inserted: its view and the snapshot it runs, and, when this process
 * sends the first step itself, that step as claimed (null: a job sends it).
 */
export interface StartedExecution {
  view: ExecutionView;
  definition: FlowDefinition;
  local: LocalClaim | null;
}

/** A claim that holds its step's run. */
export type LocalClaim = Claim & { run: StoredRun };

export async function insertExecution(
  on: Within,
  reads: ViewReads,
  fields: { companyId: string; flowId: string; variables: Record<string, unknown>; args: Record<string, unknown> | null; localGraceS: number | null },
  /** The engine's clock's now: when the execution is created, and when a local first step starts. */
  startedAt: Date,
): Promise<StartedExecution | null> {
  const sendsFirst = fields.localGraceS !== null;
  const [row] = await INSERT_EXECUTIONS(on, reads, fields.companyId, {
    id: randomUUID(),
    flow_id: fields.flowId,
    created_at: startedAt,
    variables: fields.variables,
    arguments: fields.args,
    status: sendsFirst ? 'in_progress' : 'scheduled',
    grace: fields.localGraceS,
    started_at: startedAt,
    executed_at: sendsFirst ? startedAt : null,
    run_id: randomUUID(),
  });
  if (!row) return null;
  const view = viewOfStored(executionContract.view, row);
  const local: LocalClaim | null = row.run_id
    ? {
        state: {
          id: view.id,
          companyId: fields.companyId,
          flowId: fields.flowId,
          status: 'in_progress',
          attemptNumber: 1,
          variables: fields.variables,
          arguments: fields.args,
          definition: row.definition,
          secret: row.secret,
          flowDeleted: false,
          runs: [],
        },
        run: { id: row.run_id, version: 1, attemptNumber: 1, stepNumber: row.local_step!, status: 'running', extracted: {}, error: null, retryable: true },
        // The trigger announces the execution's status itself.
        started: false,
      }
    : null;
  return { view, definition: row.definition, local };
}

/** Why the flow cannot be triggered: missing (or another company's, or deleted), stopped, or without steps. */
export async function triggerRefusal(em: EntityManager, companyId: string, flowId: string): Promise<'not_found' | 'stopped' | 'no_steps'> {
  const [row] = await em.execute<{ status: string; has_steps: boolean }[]>(
    `SELECT f.status, EXISTS (SELECT 1 FROM webhook_steps s WHERE s.flow_id = f.id AND s.deleted_at IS NULL) AS has_steps
     FROM webhook_flows f WHERE f.id = ? AND f.company_id = ? AND f.deleted_at IS NULL`,
    [flowId, companyId],
  );
  if (!row) return 'not_found';
  return row.status === 'stopped' ? 'stopped' : 'no_steps';
}

/** A job's step, as claimed: the execution's state and, when the step may run, its run. */
export interface Claim {
  state: ExecutionState;
  /** Null when the step may not run (stale job, finished step, deleted flow). */
  run: StoredRun | null;
  /** This claim moved the execution from `scheduled` to `in_progress`. */
  started: boolean;
}

/** The claim's row: the execution with its flow's secret and every run so far, and the run it claimed (null columns: none). */
interface ClaimRow {
  id: string;
  company_id: string;
  flow_id: string;
  status: ExecutionStatus;
  attempt_number: number;
  variables: Record<string, unknown>;
  arguments: Record<string, unknown> | null;
  definition: FlowDefinition | null;
  secret: string;
  flow_deleted: boolean;
  run_id: string | null;
  run_version: number | null;
  started: boolean;
  runs: StoredRun[];
}

const CLAIM = hotStatement<ClaimRow>(
  'flow-step-claim',
  `WITH execution AS (
    SELECT e.id, e.company_id, e.flow_id, e.status, e.attempt_number, e.variables, e.arguments, e.definition,
           f.secret, f.deleted_at IS NOT NULL AS flow_deleted
    FROM webhook_executions e JOIN webhook_flows f ON f.id = e.flow_id AND f.company_id = e.company_id
    WHERE e.id = ? AND e.company_id = ?
  ), runnable AS (
    SELECT id FROM execution
    WHERE status IN ('scheduled', 'in_progress') AND attempt_number = ? AND NOT flow_deleted
      AND definition -> 'steps' @> jsonb_build_array(jsonb_build_object('stepNumber', ?::int))
  ), started AS (
    UPDATE webhook_executions SET status = 'in_progress', executed_at = ?, updated_at = ?
    WHERE id IN (SELECT id FROM runnable) AND company_id = ? AND status = 'scheduled' RETURNING id
  ), run AS (
    INSERT INTO webhook_step_runs (id, created_at, updated_at, execution_id, attempt_number, step_number, status, started_at, try_errors, extracted, unresolved_variables, version)
    SELECT ?::uuid, ?::timestamptz, ?::timestamptz, id, ?::int, ?::int, 'running', ?::timestamptz, '[]', '{}', '[]', 1 FROM runnable
    ON CONFLICT (execution_id, attempt_number, step_number) DO UPDATE
      SET started_at = excluded.started_at, updated_at = excluded.updated_at, version = webhook_step_runs.version + 1
      WHERE webhook_step_runs.status = 'running'
    RETURNING id, version
  )
  SELECT execution.*, run.id AS run_id, run.version AS run_version, EXISTS (SELECT 1 FROM started) AS started,
    COALESCE((SELECT json_agg(json_build_object('id', r.id, 'attemptNumber', r.attempt_number, 'stepNumber', r.step_number,
        'status', r.status, 'extracted', r.extracted, 'version', r.version, 'error', r.error, 'retryable', r.retryable))
      FROM webhook_step_runs r WHERE r.execution_id = execution.id), '[]'::json) AS runs
  FROM execution LEFT JOIN run ON true`,
);

/**
 * Loads the execution (with its flow's secret and every step run so far) and claims the
 * job's step, in one statement: the run is marked `running` and, at an attempt's first
 * step, the execution `in_progress`. A run already `running` (its worker presumed dead:
 * its job came back) is taken over, its version bumped so that the old worker cannot
 * record it. The step is not claimed when the job is stale (other attempt, execution
 * over, step not in the snapshot), when the step already finished, or when the flow was
 * deleted. Null when the execution does not exist for this company.
 */
export async function claimStep(on: Within, reads: ViewReads, job: { companyId: string; executionId: string; attempt: number; step: number }, now: Date): Promise<Claim | null> {
  const [row] = await CLAIM(on, reads, [job.executionId, job.companyId, job.attempt, job.step, now, now, job.companyId, randomUUID(), now, now, job.attempt, job.step, now]);
  if (!row) return null;
  const state: ExecutionState = {
    id: row.id,
    companyId: row.company_id,
    flowId: row.flow_id,
    status: row.started ? 'in_progress' : row.status,
    attemptNumber: row.attempt_number,
    variables: row.variables,
    arguments: row.arguments,
    definition: row.definition,
    secret: row.secret,
    flowDeleted: row.flow_deleted,
    runs: row.runs,
  };
  const run = row.run_id
    ? { id: row.run_id, version: row.run_version!, attemptNumber: job.attempt, stepNumber: job.step, status: 'running' as const, extracted: {}, error: null, retryable: true }
    : null;
  return { state, run, started: row.started };
}

/** A finished step and its execution's new state, as the statement reads it. */
interface FinishRow {
  run_id: string;
  run_version: number;
  execution_id: string;
  updated_at: Date;
  status: FinishedRun['status'];
  tries: FinishedRun['tries'];
  try_errors: FinishedRun['tryErrors'];
  error: FinishedRun['error'];
  request: FinishedRun['request'];
  response: FinishedRun['response'];
  duration_ms: FinishedRun['durationMs'];
  finished_at: Date;
  extracted: Record<string, unknown>;
  unresolved_variables: FinishedRun['unresolvedVariables'];
  retryable: FinishedRun['retryable'];
  execution_status: ExecutionStatus;
  attempt_number: number;
  next_retry_at: Date | null;
  execution_finished_at: Date | null;
  error_message: string | null;
  local_step: number | null;
  local_deadline_s: number | null;
}

/**
 * Stores finished steps of the company's executions and each execution's new state, in one
 * statement shared by the steps that finish together (`sharedStatement`). A step whose run's
 * version moved on (another worker took it over) is not written, nor is its execution; the
 * statement answers the rows it wrote.
 */
const FINISH = sharedStatement<FinishRow, { ord: number }>(
  'flow-steps-finish',
  `WITH given AS (
    SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord int, run_id uuid, run_version int, execution_id uuid, updated_at timestamptz,
      status text, tries int, try_errors jsonb, error text, request jsonb, response jsonb, duration_ms int, finished_at timestamptz,
      extracted jsonb, unresolved_variables jsonb, retryable boolean, execution_status text, attempt_number int, next_retry_at timestamptz,
      execution_finished_at timestamptz, error_message text, local_step int, local_deadline_s float8)
  ), run AS (
    UPDATE webhook_step_runs r SET status = g.status, tries = g.tries, try_errors = g.try_errors, error = g.error, request = g.request, response = g.response,
      duration_ms = g.duration_ms, finished_at = g.finished_at, extracted = g.extracted, unresolved_variables = g.unresolved_variables, retryable = g.retryable,
      updated_at = g.updated_at, version = r.version + 1
    FROM given g WHERE r.id = g.run_id AND r.version = g.run_version RETURNING g.ord
  ), execution AS (
    UPDATE webhook_executions e SET status = g.execution_status, attempt_number = g.attempt_number, next_retry_at = COALESCE(g.next_retry_at, e.next_retry_at),
      finished_at = g.execution_finished_at, error_message = g.error_message, updated_at = g.updated_at,
      local_step = g.local_step, local_until = now() + make_interval(secs => g.local_deadline_s)
    FROM given g JOIN run ON run.ord = g.ord WHERE e.id = g.execution_id AND e.company_id = ?::uuid RETURNING e.id
  )
  SELECT ord FROM run`,
);

/**
 * Stores a finished step and the execution's new state in one statement. False when the
 * run's version moved on (another worker took the step over): nothing is written then.
 */
export async function finishStep(on: Within, reads: ViewReads, execution: RecordKey, run: StoredRun, done: FinishedRun, change: ExecutionChange): Promise<boolean> {
  const written = await FINISH(on, reads, execution.companyId, {
    run_id: run.id,
    run_version: run.version,
    execution_id: execution.id,
    updated_at: done.finishedAt,
    status: done.status,
    tries: done.tries,
    try_errors: done.tryErrors,
    error: done.error,
    request: done.request,
    response: done.response,
    duration_ms: done.durationMs,
    finished_at: done.finishedAt,
    extracted: done.extracted,
    unresolved_variables: done.unresolvedVariables,
    retryable: done.retryable,
    execution_status: change.status,
    attempt_number: change.attemptNumber,
    next_retry_at: change.nextRetryAt,
    execution_finished_at: change.finishedAt,
    error_message: change.errorMessage,
    local_step: change.local?.stepNumber ?? null,
    local_deadline_s: change.local?.deadlineS ?? null,
  });
  return written.length === 1;
}

/** Records steps skipped because a dependency did not succeed. */
export async function insertSkipped(em: EntityManager, executionId: string, attemptNumber: number, skipped: Skip[], now: Date): Promise<void> {
  for (const { stepNumber, error } of skipped) {
    await em.execute(
      `INSERT INTO webhook_step_runs (id, created_at, updated_at, execution_id, attempt_number, step_number, status, error, finished_at, try_errors, extracted, unresolved_variables, version)
       VALUES (?, ?, ?, ?, ?, ?, 'skipped', ?, ?, '[]', '{}', '[]', 1)`,
      [randomUUID(), now, now, executionId, attemptNumber, stepNumber, error, now],
    );
  }
}

/** Ends an execution without running its step (its flow was deleted). */
export async function failExecution(em: EntityManager, executionId: string, errorMessage: string, now: Date): Promise<void> {
  await em.execute(`UPDATE webhook_executions SET status = 'failed', finished_at = ?, error_message = ?, updated_at = ?, local_step = NULL, local_until = NULL WHERE id = ?`, [
    now,
    errorMessage,
    now,
    executionId,
  ]);
}

/** A local step handed back by `takeOverdueLocalSteps`, for the caller to queue as a job. */
export interface OverdueLocalStep {
  companyId: string;
  executionId: string;
  attempt: number;
  step: number;
  timeout: number;
}

/** `takeOverdueLocalSteps`'s row: the execution and its step's timeout (null when the definition has no such step). */
interface OverdueLocalStepRow {
  id: string;
  company_id: string;
  attempt_number: number;
  status: string;
  step: number;
  timeout: number | null;
}

/**
 * Takes up to `limit` local steps (of any company) past their deadline: their process died or
 * lost them. Each is handed back (no longer local) for the caller to queue as a job in the same
 * transaction; a step of an execution already over is only released. A named sweep across
 * companies (docs/scaling.md); concurrent sweeps skip each other's rows.
 */
export async function takeOverdueLocalSteps(em: EntityManager, limit: number): Promise<OverdueLocalStep[]> {
  const rows = await em.execute<OverdueLocalStepRow[]>(
    `/* sweep:flow-steps.local */ WITH overdue AS (
       SELECT id, local_step FROM webhook_executions WHERE local_until < now() ORDER BY local_until LIMIT ? FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_executions e SET local_step = NULL, local_until = NULL
     FROM overdue WHERE e.id = overdue.id
     RETURNING e.id, e.company_id, e.attempt_number, e.status, overdue.local_step AS step,
       (SELECT (s ->> 'timeout')::int FROM jsonb_array_elements(e.definition -> 'steps') s WHERE (s ->> 'stepNumber')::int = overdue.local_step) AS timeout`,
    [limit],
  );
  return rows
    .filter((r) => r.status === 'scheduled' || r.status === 'in_progress')
    .map((r) => ({ companyId: r.company_id, executionId: r.id, attempt: r.attempt_number, step: r.step, timeout: r.timeout ?? 0 }));
}
