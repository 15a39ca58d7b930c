import { bodyParser } from '@koa/bodyparser';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Context, Middleware, Next } from 'koa';
import { addLogFields, type Logger } from '../logger';
import type { AuthService } from '../services/auth.service';
import { unstorable } from '../services/input/storable';
import type { RateLimited, RateLimitService } from '../services/rate-limit.service';
import type { Caller } from '../services/scope';
import { MalformedRequest, type ErrorPolicy, failure, mapError } from './envelope';

export interface RestState {
  requestId: string;
  errorPolicy: ErrorPolicy;
  caller: Caller;
}

export type RestContext = Context & { state: RestState };

/** Largest accepted request body. */
export const BODY_LIMIT = '1mb';

/**
 * The only place errors become responses (inside `observeRequests`, which gives the
 * request its id). Failures of ours are logged in full; the caller gets an opaque 500.
 */
export function handleErrors(logger: Logger): Middleware {
  return async (ctx: Context, next: Next) => {
    ctx.state.errorPolicy = 'standard';
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 404) {
        ctx.status = 404;
        ctx.body = failure('Not found');
      }
    } catch (err) {
      const mapped = mapError(err, ctx.state.errorPolicy as ErrorPolicy);
      if (mapped.internal) logger.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
      ctx.status = mapped.status;
      ctx.body = mapped.body;
      if (mapped.headers) ctx.set(mapped.headers);
    }
  };
}

/** Why no route could serve this URL safely: malformed percent-encoding, or NUL characters (PostgreSQL cannot store them). */
function urlProblem(ctx: Context): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(ctx.path) + decodeURIComponent(ctx.querystring.replace(/\+/g, ' '));
  } catch {
    return 'Malformed URL encoding';
  }
  return decoded.includes('\u0000') ? 'NUL characters are not allowed' : null;
}

/** Refuses a malformed URL (400, or what the route's error policy makes of it). */
export const wellFormedUrl: Middleware = async (ctx, next) => {
  const problem = urlProblem(ctx);
  if (problem) throw new MalformedRequest(400, problem);
  await next();
};

/**
 * Refuses malformed URLs before any route, except those of a REST operation: the operation
 * refuses them itself (`wellFormedUrl`, after authentication), so that its error policy
 * applies; campaign update answers 200 `error`, as documented for any of its failures.
 */
export function rejectMalformedUrls(routes: { match(path: string, method: string): { route: boolean } }): Middleware {
  return async (ctx, next) => {
    if (!routes.match(ctx.path, ctx.method).route) return wellFormedUrl(ctx, next);
    await next();
  };
}

/**
 * The middleware every endpoint starts with: its error policy, then authentication, which
 * builds the caller (scope plus a fresh EntityManager fork for this request), then the
 * caller's rate limits: one request, plus the operation's own limit when it has one.
 */
export function endpointKit(orm: MikroORM, auth: AuthService, rateLimits: RateLimitService) {
  const json = bodyParser({
    enableTypes: ['json'],
    jsonLimit: BODY_LIMIT,
    encoding: 'utf-8',
    onError: (err: Error & { status?: number }, ctx: Context) => {
      // The parser leaves a refused body unread (over the limit: not read at all) and the
      // request paused; kept alive, the connection would wait for it forever.
      if (!ctx.req.complete) ctx.set('Connection', 'close');
      if (err.status === 413) throw new MalformedRequest(413, 'Request body too large (limit 1 MiB)');
      if (err.status === 415) throw new MalformedRequest(415, 'Unsupported content encoding');
      throw new MalformedRequest(400, 'Malformed JSON body');
    },
  });
  return (options: { policy?: ErrorPolicy; body?: boolean; limit?: Exclude<RateLimited, 'request'> } = {}): Middleware[] => {
    const counted: RateLimited[] = options.limit ? ['request', options.limit] : ['request'];
    const policy: Middleware = async (ctx, next) => {
      ctx.state.errorPolicy = options.policy ?? 'standard';
      await next();
    };
    const authenticate: Middleware = async (ctx, next) => {
      const em = orm.em.fork();
      const scope = await auth.authenticate(em, ctx.req.headersDistinct.authorization);
      addLogFields({ company_id: scope.companyId, user_id: scope.userId });
      await rateLimits.consume(scope, counted);
      ctx.state.caller = { scope, em } satisfies Caller;
      await next();
    };
    const storable: Middleware = async (ctx, next) => {
      const problem = unstorable(ctx.request.body);
      if (problem) throw new MalformedRequest(400, problem);
      await next();
    };
    return options.body ? [policy, authenticate, wellFormedUrl, json, storable] : [policy, authenticate, wellFormedUrl];
  };
}

export type Endpoint = ReturnType<typeof endpointKit>;
