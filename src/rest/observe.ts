import { randomUUID } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import { type Logger, withLogFields } from '../logger';
import { type Metrics, UNMATCHED_ROUTE } from '../metrics';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The route pattern that served the request: @koa/router's matched route (`/v1/calls/:id`),
 * or the `ctx.state.route` a handler outside the router names (GraphQL), else `unmatched`.
 * Never the raw path, whose ids would make a label value per record.
 */
function routeOf(ctx: Context): string {
  const named = (ctx.state as { route?: string }).route;
  if (named) return named;
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  return matched === undefined ? UNMATCHED_ROUTE : String(matched);
}

/** The request's id: its `X-Request-Id` when that is a sane token, else a new one. */
export const requestIdOf = (given: unknown): string => (typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID());

/** Records a finished request (started at `started`, a `performance.now()`): its latency histogram, and one `info` access line. */
export function recordRequest(logger: Logger, metrics: Metrics, request: { method: string; route: string; path: string; status: number }, started: number): void {
  const seconds = (performance.now() - started) / 1000;
  metrics.httpDuration.observe({ route: request.route, method: request.method, status: String(request.status) }, seconds);
  logger.info({ ...request, ms: Math.round(seconds * 1000) }, 'request');
}

/**
 * Outermost middleware. Gives the request its id (`requestIdOf`, echoed in the response),
 * runs everything after it with that id on every log line, then records the request
 * (`recordRequest`) with the final status (after errors became responses).
 */
export function observeRequests(logger: Logger, metrics: Metrics): Middleware {
  return async (ctx: Context, next: Next) => {
    const requestId = requestIdOf(ctx.get('x-request-id'));
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    await withLogFields({ request_id: requestId }, async () => {
      try {
        await next();
      } finally {
        recordRequest(logger, metrics, { method: ctx.method, route: routeOf(ctx), path: ctx.path, status: ctx.status }, started);
      }
    });
  };
}
