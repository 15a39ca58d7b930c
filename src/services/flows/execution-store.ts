import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookExecution } from '../../entities';
import type { ExecutionStatus, FlowDefinition } from '../../entities/webhook-execution.entity';
import type { LoggedRequest, LoggedResponse, StepRunStatus } from '../../entities/webhook-step-run.entity';
import type { RunRecord } from './flow-plan';

/**
 * The flow engine's reads and writes, in plain SQL. The engine's hot path runs a handful of
 * statements per step; through MikroORM's unit of work each one cost 1 to 3 ms of CPU
 * (measured; bench/flows.ts), here about 0.25 ms, which is what lets one process run
 * hundreds of executions a second. Reads for the API stay on the entities.
 */

export interface FlowToRun {
  status: string;
  definition: FlowDefinition;
}

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
  definition: FlowDefinition | null;
  secret: string;
  flowDeleted: boolean;
  runs: StoredRun[];
}

/** A finished step as stored in its run. */
export interface FinishedRun {
  status: StepRunStatus;
  tries: number;
  tryErrors: string[];
  error: string | null;
  request: LoggedRequest | null;
  response: LoggedResponse | null;
  durationMs: number;
  finishedAt: Date;
  extracted: Record<string, unknown>;
}

/** The execution columns a step's end may change. */
export interface ExecutionChange {
  status: ExecutionStatus;
  attemptNumber: number;
  nextRetryAt: Date | null;
  finishedAt: Date | null;
  errorMessage: string | null;
}

const json = (value: unknown) => JSON.stringify(value);

/** The flow (of this company, not deleted) with a snapshot of its steps and settings. */
export async function loadFlowToRun(em: EntityManager, companyId: string, flowId: string): Promise<FlowToRun | null> {
  const [row] = await em.execute<{ status: string; definition: FlowDefinition }[]>(
    `SELECT f.status, json_build_object(
       'steps', COALESCE((SELECT json_agg(json_build_object(
           'stepNumber', s.step_number, 'url', s.webhook_url, 'method', s.webhook_method,
           'webhookTimeout', s.webhook_timeout, 'retryLimit', s.retry_limit, 'timeout', s.timeout,
           'urlParams', s.webhook_url_params, 'headers', s.webhook_headers, 'body', s.webhook_body,
           'dependsOnStep', s.depends_on_step, 'successCondition', s.success_condition) ORDER BY s.step_number)
         FROM webhook_steps s WHERE s.flow_id = f.id AND s.deleted_at IS NULL), '[]'::json),
       'variables', f.variables, 'predefinedVariables', f.predefined_variables,
       'maxRetries', f.max_retries, 'retryDelay', f.retry_delay, 'retryDelayUnit', f.retry_delay_unit) AS definition
     FROM webhook_flows f WHERE f.id = ? AND f.company_id = ? AND f.deleted_at IS NULL`,
    [flowId, companyId],
  );
  return row ?? null;
}

/** Inserts a `scheduled` execution; call within the transaction that queues its first step. */
export async function insertExecution(
  em: EntityManager,
  fields: { companyId: string; flowId: string; variables: Record<string, unknown>; definition: FlowDefinition },
): Promise<WebhookExecution> {
  const now = new Date();
  const [row] = await em.execute(
    `INSERT INTO webhook_executions (id, created_at, updated_at, company_id, flow_id, status, attempt_number, variables, definition)
     VALUES (?, ?, ?, ?, ?, 'scheduled', 1, ?::jsonb, ?::jsonb) RETURNING *`,
    [randomUUID(), now, now, fields.companyId, fields.flowId, json(fields.variables), json(fields.definition)],
  );
  return em.map(WebhookExecution, row);
}

/** The execution of this company with its flow's secret and every step run so far. */
export async function loadExecution(em: EntityManager, companyId: string, executionId: string): Promise<ExecutionState | null> {
  const [row] = await em.execute(
    `SELECT e.id, e.company_id, e.flow_id, e.status, e.attempt_number, e.variables, e.definition,
            f.secret, f.deleted_at IS NOT NULL AS flow_deleted,
            COALESCE((SELECT json_agg(json_build_object('id', r.id, 'attemptNumber', r.attempt_number,
                'stepNumber', r.step_number, 'status', r.status, 'extracted', r.extracted, 'version', r.version, 'error', r.error))
              FROM webhook_step_runs r WHERE r.execution_id = e.id), '[]'::json) AS runs
     FROM webhook_executions e JOIN webhook_flows f ON f.id = e.flow_id
     WHERE e.id = ? AND e.company_id = ?`,
    [executionId, companyId],
  );
  if (!row) return null;
  return {
    id: row.id,
    companyId: row.company_id,
    flowId: row.flow_id,
    status: row.status,
    attemptNumber: row.attempt_number,
    variables: row.variables,
    definition: row.definition,
    secret: row.secret,
    flowDeleted: row.flow_deleted,
    runs: row.runs,
  };
}

/**
 * Marks a step of the execution's current attempt `running` and, at an attempt's first step,
 * the execution `in_progress`, in one statement. A run already `running` (its worker
 * presumed dead: its job came back) is taken over, its version bumped so the old worker
 * cannot record it. Null when the step is already finished.
 */
export async function claimStep(
  em: EntityManager,
  state: ExecutionState,
  stepNumber: number,
  now: Date,
): Promise<{ run: StoredRun; started: boolean } | null> {
  const [row] = await em.execute(
    `WITH started AS (
       UPDATE webhook_executions SET status = 'in_progress', executed_at = ?, updated_at = ?
       WHERE id = ? AND status = 'scheduled' AND attempt_number = ? RETURNING id
     ), run AS (
       INSERT INTO webhook_step_runs (id, created_at, updated_at, execution_id, attempt_number, step_number, status, started_at, try_errors, extracted, version)
       VALUES (?, ?, ?, ?, ?, ?, 'running', ?, '[]', '{}', 1)
       ON CONFLICT (execution_id, attempt_number, step_number) DO UPDATE
         SET started_at = excluded.started_at, updated_at = excluded.updated_at, version = webhook_step_runs.version + 1
         WHERE webhook_step_runs.status = 'running'
       RETURNING id, version
     )
     SELECT run.id, run.version, EXISTS (SELECT 1 FROM started) AS started FROM run`,
    [now, now, state.id, state.attemptNumber, randomUUID(), now, now, state.id, state.attemptNumber, stepNumber, now],
  );
  if (!row) return null;
  const run = { id: row.id, version: row.version, attemptNumber: state.attemptNumber, stepNumber, status: 'running' as const, extracted: {}, error: null };
  return { run, started: row.started };
}

/**
 * Stores a finished step and the execution's new state in one statement. False when the
 * run's version moved on (another worker took the step over): nothing is written then.
 */
export async function finishStep(em: EntityManager, executionId: string, run: StoredRun, done: FinishedRun, change: ExecutionChange): Promise<boolean> {
  const now = new Date();
  const [row] = await em.execute(
    `WITH run AS (
       UPDATE webhook_step_runs SET status = ?, tries = ?, try_errors = ?::jsonb, error = ?, request = ?::jsonb, response = ?::jsonb,
         duration_ms = ?, finished_at = ?, extracted = ?::jsonb, updated_at = ?, version = version + 1
       WHERE id = ? AND version = ? RETURNING id
     ), execution AS (
       UPDATE webhook_executions SET status = ?, attempt_number = ?, next_retry_at = COALESCE(?, next_retry_at), finished_at = ?, error_message = ?, updated_at = ?
       WHERE id = ? AND EXISTS (SELECT 1 FROM run) RETURNING id
     )
     SELECT count(*)::int AS n FROM run`,
    [
      done.status, done.tries, json(done.tryErrors), done.error, json(done.request), json(done.response),
      done.durationMs, done.finishedAt, json(done.extracted), now, run.id, run.version,
      change.status, change.attemptNumber, change.nextRetryAt, change.finishedAt, change.errorMessage, now, executionId,
    ],
  );
  return row.n === 1;
}

/** Records steps skipped because a dependency did not succeed. */
export async function insertSkipped(em: EntityManager, executionId: string, attemptNumber: number, skipped: { stepNumber: number; error: string }[], now: Date): Promise<void> {
  for (const { stepNumber, error } of skipped) {
    await em.execute(
      `INSERT INTO webhook_step_runs (id, created_at, updated_at, execution_id, attempt_number, step_number, status, error, finished_at, try_errors, extracted, version)
       VALUES (?, ?, ?, ?, ?, ?, 'skipped', ?, ?, '[]', '{}', 1)`,
      [randomUUID(), now, now, executionId, attemptNumber, stepNumber, error, now],
    );
  }
}

/** Ends an execution without running its step (its flow was deleted). */
export async function failExecution(em: EntityManager, executionId: string, errorMessage: string, now: Date): Promise<void> {
  await em.execute(`UPDATE webhook_executions SET status = 'failed', finished_at = ?, error_message = ?, updated_at = ? WHERE id = ?`, [now, errorMessage, new Date(), executionId]);
}
