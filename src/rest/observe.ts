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

/**
 * Outermost middleware. Gives the request its id (taken from `X-Request-Id` when it is a
 * sane token, else generated; echoed in the response), runs everything after it with that
 * id on every log line, then writes one `info` access line and records the latency, with
 * the final status (after errors became responses).
 */
export function observeRequests(logger: Logger, metrics: Metrics): Middleware {
  return async (ctx: Context, next: Next) => {
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    await withLogFields({ request_id: requestId }, async () => {
      try {
        await next();
      } finally {
        const seconds = (performance.now() - started) / 1000;
        const route = routeOf(ctx);
        metrics.httpDuration.observe({ route, method: ctx.method, status: String(ctx.status) }, seconds);
        logger.info({ method: ctx.method, route, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1000) }, 'request');
      }
    });
  };
}
