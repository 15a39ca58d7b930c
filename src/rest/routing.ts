import type { Middleware } from 'koa';
import { MalformedRequest } from './envelope';

/**
 * Which route a URL goes to when several paths match it: the one with the fewest path
 * parameters, as OpenAPI says ("concrete paths are matched before templated ones"), so that
 * `GET /v1/ai-agent/templates` is the templates and never the agent with id `templates`.
 * @koa/router applies it when dispatching (`exclusive: 'specificity'`); `allowedMethods`
 * below applies it to the method.
 */
export const ROUTER_OPTIONS = { exclusive: 'specificity' } as const;

/**
 * Answers 405 with `Allow` when the most specific path matching the URL (see above) does
 * not take the request's method, instead of letting a less specific path answer it: a
 * `GET /v1/calls/make-call` is the wrong method on make-call, not a call with id
 * `make-call`, and a `PUT /v1/campaigns/list` is no unknown route. URLs no route matches
 * go on (404 further down).
 */
/** What `allowedMethods` reads of a @koa/router Router (`match`, and its layers' `methods` and `paramNames`). */
interface Routes {
  match(path: string, method: string): { path: { methods: string[]; paramNames: unknown[] }[] };
}

export function allowedMethods(routers: readonly Routes[]): Middleware {
  return async (ctx, next) => {
    for (const router of routers) {
      const layers = router.match(ctx.path, ctx.method).path.filter((layer) => layer.methods.length > 0);
      if (layers.length === 0) continue;
      const fewest = Math.min(...layers.map((layer) => layer.paramNames.length));
      const allowed = [...new Set(layers.filter((layer) => layer.paramNames.length === fewest).flatMap((layer) => layer.methods))];
      if (!allowed.includes(ctx.method)) throw new MalformedRequest(405, 'Method not allowed', { Allow: allowed.join(', ') });
    }
    await next();
  };
}
