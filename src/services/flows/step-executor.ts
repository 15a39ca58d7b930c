import { setTimeout as sleep } from 'node:timers/promises';
import jsonLogic from 'json-logic-js';
import { Webhook } from 'standardwebhooks';
import type { StepDefinition } from '../../entities/webhook-execution.entity';
import type { LoggedRequest, LoggedResponse } from '../../entities/webhook-step-run.entity';
import type { Clock } from '../shared/clock';
import { DeliveryError, type OutboundHttp, type OutboundRequest, type OutboundResponse } from './outbound-http';
import { fillJson, fillMap, fillText, type Scope, unresolvedNames } from './placeholders';
import { logRequest, logResponse, maskSecrets } from './step-log';

/** A response as success conditions and variable locations see it. */
export interface ResponseView {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, else its text; null when empty. */
  body: unknown;
}

export interface StepOutcome {
  status: 'success' | 'failed';
  /** False for a failure no later attempt can cure (a blocked address, a bad URL or condition). */
  retryable: boolean;
  tries: number;
  tryErrors: string[];
  error: string | null;
  request: LoggedRequest | null;
  response: LoggedResponse | null;
  durationMs: number;
  /** Placeholders of the step that no source gave a value, sent as '' (docs/flows.md). */
  unresolvedVariables: string[];
  /** The last response, for variable extraction; null when none came. */
  view: ResponseView | null;
}

export interface StepTask {
  executionId: string;
  step: StepDefinition;
  /** The values of the URL, query parameters and headers. */
  scope: Scope;
  /** The values of the body: `scope`, plus a flow tool's arguments (flow-plan `bodyScope`). */
  bodyScope: Scope;
  /** The body of a step without `webhook_body`, sent as is (flow-plan `eventBody`); null: none. */
  defaultBody: unknown;
  /** The flow's Standard Webhooks secret. */
  secret: string;
  /** Values the step's log never shows (the flow's secret variables): masked in what is stored. */
  masked: readonly string[];
}

interface TryResult {
  ok: boolean;
  error: string | null;
  retryable: boolean;
  timedOut: boolean;
  request: LoggedRequest;
  response: LoggedResponse | null;
  view: ResponseView | null;
}

/** Most pause between two tries of a step. */
const MAX_BACKOFF_MS = 30_000;
const SIGNATURE_HEADERS = new Set(['webhook-id', 'webhook-timestamp', 'webhook-signature']);

/**
 * Sends one step: placeholders filled, signed, retried up to `retry_limit` times with
 * doubling pauses, each try bounded by `webhook_timeout` and the whole step by `timeout`.
 * Timeouts are real durations (timers), not readings of the injected clock; signature
 * timestamps come from the clock.
 */
export class StepExecutor {
  constructor(
    private readonly http: OutboundHttp,
    private readonly clock: Clock,
    private readonly backoffMs: number,
  ) {}

  async run(task: StepTask): Promise<StepOutcome> {
    const started = performance.now();
    const { step } = task;
    const deadline = started + step.timeout * 1000;
    const sendsBody = hasBody(step);
    const defaultBody = sendsDefault(step, task.defaultBody) ? task.defaultBody : null;
    const unresolvedVariables = [...new Set([...unresolvedNames([step.url, step.urlParams, step.headers], task.scope), ...unresolvedNames([sendsBody ? step.body : null], task.bodyScope)])].sort();
    let request: OutboundRequest;
    try {
      request = buildRequest(step, task.scope, task.bodyScope, defaultBody);
    } catch (err) {
      const retryable = !(err instanceof DeliveryError) || err.retryable;
      return {
        status: 'failed',
        retryable,
        tries: 0,
        tryErrors: [],
        error: maskSecrets((err as Error).message, task.masked),
        request: null,
        response: null,
        durationMs: 0,
        unresolvedVariables,
        view: null,
      };
    }
    const tryErrors: string[] = [];
    for (let tries = 1; ; tries++) {
      const left = deadline - performance.now();
      const result = await this.try(task, request, Math.min(step.webhookTimeout * 1000, left));
      const durationMs = Math.round(performance.now() - started);
      const outcome = { tries, tryErrors, request: result.request, response: result.response, durationMs, unresolvedVariables, view: result.view, retryable: result.retryable };
      if (result.ok) return { ...outcome, status: 'success', error: null };
      if (!result.retryable || tries > step.retryLimit) return { ...outcome, status: 'failed', error: result.error };
      const pause = Math.min(this.backoffMs * 2 ** (tries - 1), MAX_BACKOFF_MS);
      if (deadline - performance.now() <= pause || (result.timedOut && left < step.webhookTimeout * 1000)) {
        return { ...outcome, status: 'failed', error: `${result.error}; step timeout of ${step.timeout} s reached` };
      }
      tryErrors.push(result.error!);
      await sleep(pause);
    }
  }

  private async try(task: StepTask, request: OutboundRequest, timeoutMs: number): Promise<TryResult> {
    const signed = sign(request, `msg_${task.executionId}_${task.step.stepNumber}`, task.secret, this.clock.now());
    const logged = logRequest(signed, task.masked);
    let response: OutboundResponse;
    try {
      response = await this.http.send(signed, timeoutMs);
    } catch (err) {
      const e = err instanceof DeliveryError ? err : new DeliveryError(String(err), true);
      return { ok: false, error: maskSecrets(e.message, task.masked), retryable: e.retryable, timedOut: e.timedOut, request: logged, response: null, view: null };
    }
    const view: ResponseView = { status: response.status, headers: response.headers, body: parseBody(response) };
    const verdict = judge(view, task.step.successCondition);
    return { ...verdict, timedOut: false, request: logged, response: logResponse(response, task.masked), view };
  }
}

/**
 * The request a step describes, placeholders filled (the body's from `bodyScope`), or with
 * `defaultBody` as is. Throws DeliveryError on a bad URL.
 */
function buildRequest(step: StepDefinition, scope: Scope, bodyScope: Scope, defaultBody: unknown): OutboundRequest {
  const filled = fillText(step.url, scope);
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    // The template, not the filled URL: filled values may be credentials.
    throw new DeliveryError(`Not a valid URL once its placeholders are filled: ${step.url.slice(0, 200)}`, false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DeliveryError(`Not an http or https URL: ${url.protocol}`, false);
  for (const [name, value] of Object.entries(fillMap(step.urlParams, scope))) url.searchParams.append(name, value);
  const headers = Object.fromEntries(Object.entries(fillMap(step.headers, scope)).filter(([name]) => !SIGNATURE_HEADERS.has(name.toLowerCase())));
  const names = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  const body = hasBody(step) ? JSON.stringify(fillJson(step.body, bodyScope)) : defaultBody !== null ? JSON.stringify(defaultBody) : null;
  if (body !== null && !names.has('content-type')) headers['content-type'] = 'application/json';
  if (!names.has('user-agent')) headers['user-agent'] = 'Switchboard-Webhooks/1.0';
  return { method: step.method, url: url.toString(), headers, body };
}

const methodSendsBody = (step: StepDefinition): boolean => step.method !== 'GET' && step.method !== 'HEAD';

/** Whether the step sends its `webhook_body`: not for GET and HEAD, nor without one. */
const hasBody = (step: StepDefinition): boolean => methodSendsBody(step) && step.body !== null;

/** Whether the step sends the default body instead: one is given, and the step has no body of its own but may send one. */
const sendsDefault = (step: StepDefinition, defaultBody: unknown): boolean => methodSendsBody(step) && step.body === null && defaultBody !== null;

/** Adds the Standard Webhooks headers: `{id}.{timestamp}.{body}` signed with HMAC-SHA256. */
function sign(request: OutboundRequest, messageId: string, secret: string, at: Date): OutboundRequest {
  const signature = new Webhook(secret).sign(messageId, at, request.body ?? '');
  const headers = { ...request.headers, 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
  return { ...request, headers };
}

function parseBody(response: OutboundResponse): unknown {
  if (response.text === '') return null;
  if (response.truncated) return response.text;
  try {
    return JSON.parse(response.text);
  } catch {
    return response.text;
  }
}

/** A 2xx status when there is no `success_condition`, else the JSON Logic rule's truthiness. */
function judge(view: ResponseView, condition: unknown): { ok: boolean; error: string | null; retryable: boolean } {
  if (condition === null || condition === undefined) {
    const ok = view.status >= 200 && view.status < 300;
    return { ok, error: ok ? null : `HTTP ${view.status} (expected 2xx)`, retryable: true };
  }
  try {
    const ok = jsonLogic.truthy(jsonLogic.apply(condition, view));
    return { ok, error: ok ? null : `HTTP ${view.status}: success_condition not met`, retryable: true };
  } catch (err) {
    return { ok: false, error: `success_condition is not valid JSON Logic: ${(err as Error).message}`, retryable: false };
  }
}
