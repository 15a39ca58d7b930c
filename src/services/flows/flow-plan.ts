import type { FlowDefinition, StepDefinition } from '../../entities/webhook-execution.entity';
import type { StepRunStatus } from '../../entities/webhook-step-run.entity';
import { coerce, readPath, type Scope } from './placeholders';
import { delayMs } from '../shared/delays';
import { FLOW_EVENTS, type FlowEventName } from '../../entities/webhook-flow.entity';
import { SUBJECT_OF } from './flow-outbox.store';

/**
 * What an execution does next, decided from its flow snapshot and its step runs alone.
 * Pure functions: the runner stores what they decide.
 */

/** What the planner needs of a stored step run. */
export interface RunRecord {
  attemptNumber: number;
  stepNumber: number;
  status: StepRunStatus;
  extracted: Record<string, unknown>;
  /** False when the run failed in a way no later attempt can cure. */
  retryable: boolean;
}

/** A step skipped because its dependency did not succeed, and why in words. */
export interface Skip {
  stepNumber: number;
  error: string;
}

export type NextAction = { kind: 'run'; step: StepDefinition; skipped: Skip[] } | { kind: 'done'; skipped: Skip[]; failedStep: number | null };

const succeeded = (runs: RunRecord[], step: number) => runs.some((r) => r.stepNumber === step && r.status === 'success');

/**
 * The next step of `attempt` to send, with the steps to mark skipped on the way (a step
 * whose dependency failed or was skipped in this attempt), or `done`. Steps that succeeded
 * in an earlier attempt are not sent again: an attempt retries what did not succeed.
 */
export function nextAction(definition: FlowDefinition, runs: RunRecord[], attempt: number): NextAction {
  const current = new Map<number, StepRunStatus>();
  for (const r of runs) if (r.attemptNumber === attempt) current.set(r.stepNumber, r.status);
  const skipped: Skip[] = [];
  let failedStep: number | null = null;
  for (const step of definition.steps) {
    if (succeeded(runs, step.stepNumber)) continue;
    const status = current.get(step.stepNumber);
    if (status === 'failed' || status === 'skipped') {
      if (status === 'failed') failedStep ??= step.stepNumber;
      continue;
    }
    const dependency = step.dependsOnStep;
    if (dependency !== null && !succeeded(runs, dependency)) {
      skipped.push({ stepNumber: step.stepNumber, error: `Skipped: step ${dependency} did not succeed` });
      current.set(step.stepNumber, 'skipped');
      continue;
    }
    return { kind: 'run', step, skipped };
  }
  return { kind: 'done', skipped, failedStep };
}

/** True once every step has succeeded, in this attempt or an earlier one. */
export function allSucceeded(definition: FlowDefinition, runs: RunRecord[]): boolean {
  return definition.steps.every((s) => succeeded(runs, s.stepNumber));
}

/**
 * Whether a failed attempt gets another, and after how long: not past `max_retries`, and
 * not when a step of it failed in a way no retry can cure (a blocked address sent again is
 * blocked again; retrying the other failed steps would only repeat them).
 */
export function retryPlan(definition: FlowDefinition, runs: RunRecord[], attempt: number): { delayMs: number } | null {
  if (attempt > definition.maxRetries) return null;
  if (runs.some((r) => r.attemptNumber === attempt && r.status === 'failed' && !r.retryable)) return null;
  return { delayMs: delayMs(definition.retryDelay, definition.retryDelayUnit) };
}

/**
 * The values placeholders are filled from, highest precedence first: the trigger payload,
 * variables extracted from earlier responses (or their `customValue` when extraction found
 * nothing), then `predefinedVariables`.
 */
export function variableScope(definition: FlowDefinition, trigger: Record<string, unknown>, runs: RunRecord[]): Scope {
  const scope: Scope = {};
  for (const v of definition.predefinedVariables) scope[v.name] = v.value;
  for (const v of definition.variables) {
    const source = runs.find((r) => r.stepNumber === v.stepId && r.status === 'success' && Object.hasOwn(r.extracted, v.name));
    if (source) scope[v.name] = source.extracted[v.name];
    else if (v.customValue) scope[v.name] = v.customValue;
  }
  return Object.assign(scope, trigger);
}

/**
 * The values a step's body is filled from: `scope`, then a flow tool's arguments (the
 * model's) under the names neither the trigger nor the flow gives (docs/flows.md, "Flows as
 * tools"). So arguments never stand for a predefined or extracted variable or the call's
 * context, and never reach the URL, query parameters or headers.
 */
export function bodyScope(definition: FlowDefinition, scope: Scope, args: Record<string, unknown> | null): Scope {
  if (!args) return scope;
  const taken = new Set([...Object.keys(scope), ...definition.predefinedVariables.map((v) => v.name), ...definition.variables.map((v) => v.name)]);
  return { ...Object.fromEntries(Object.entries(args).filter(([name]) => !taken.has(name))), ...scope };
}

/**
 * What a step without `webhook_body` sends in an event's execution (its variables
 * `{event, occurred_at, call | campaign}`, docs/flows.md "Event subscriptions"): the event
 * itself, `{type, timestamp, data}`, as Standard Webhooks recommends, sent as is (no
 * placeholders filled in a record's text). Null for other executions.
 */
export function eventBody(variables: Record<string, unknown>): Record<string, unknown> | null {
  const type = variables.event;
  if (!FLOW_EVENTS.includes(type as FlowEventName)) return null;
  const data = variables[SUBJECT_OF[type as FlowEventName]];
  return data !== null && typeof data === 'object' ? { type, timestamp: variables.occurred_at, data } : null;
}

/** The flow variables a step's response yields (those naming this step), converted to their `dataType`. */
export function extractVariables(definition: FlowDefinition, stepNumber: number, response: { status: number; headers: Record<string, string>; body: unknown }): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  for (const v of definition.variables.filter((x) => x.stepId === stepNumber)) {
    const value = coerce(readPath(response, v.location), v.dataType);
    if (value !== undefined) found[v.name] = value;
  }
  return found;
}
