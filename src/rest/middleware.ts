import type { MikroORM } from '@mikro-orm/postgresql';
import type { Context, Middleware, Next } from 'koa';
import { BodyError, hasContent, readJsonBody } from '../http/json-body';
import { addLogFields, type Logger } from '../logger';
import type { AuthService } from '../services/auth/auth.service';
import { ValidationError } from '../services/shared/errors';
import { reservedKeys, unstorable } from '../services/shared/storable';
import { requestOrigin } from '../http/client-address';
import type { RateLimited, RateLimitService } from '../services/platform/rate-limit.service';
import type { Caller } from '../services/shared/scope';
import { MalformedRequest, type ErrorPolicy, failure, type Mapped, mapError } from './envelope';

export interface RestState {
  requestId: string;
  errorPolicy: ErrorPolicy;
  caller: Caller;
  /** The operation's JSON body and query under the service's names (`restNames`, rest-names.ts). */
  input: { body: unknown; query: unknown };
}

export type RestContext = Context & { state: RestState };

/** The reason a documented `error` answer hides: the status, message and field list the standard answer has. */
const reasonOf = ({ status, body }: { status: number; body: { message: string; data: unknown } }) => ({
  status,
  message: body.message,
  ...(Array.isArray(body.data) ? { fields: body.data } : {}),
});

/**
 * The answer to a failure under `policy`, logged: failures of ours in full (the caller gets
 * an opaque 500), a reason a documented quirk hides at info.
 */
export function answerFailure(err: unknown, policy: ErrorPolicy, logger: Logger, request: { method: string; path: string }): Mapped {
  const mapped = mapError(err, policy);
  if (mapped.internal) logger.error({ err, ...request }, 'request failed');
  else if (mapped.hidden) logger.info({ reason: reasonOf(mapped.hidden) }, 'documented error answer: its reason');
  return mapped;
}

/**
 * The only place errors become responses of the Koa chain (inside `observeRequests`, which
 * gives the request its id); the hot reads (hot-reads.ts) answer theirs by `answerFailure` too.
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
      const mapped = answerFailure(err, ctx.state.errorPolicy as ErrorPolicy, logger, { method: ctx.method, path: ctx.path });
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
    if (!routes.match(ctx.path, ctx.method).route) {
      await wellFormedUrl(ctx, next);
      return;
    }
    await next();
  };
}

/**
 * The middleware every endpoint starts with: its error policy, then authentication, which
 * builds the caller (scope plus a fresh EntityManager fork for this request; refused first when
 * the client's address is over its failed-authentication limit), then the
 * caller's rate limits: one request, plus the operation's own limit when it has one.
 */
export function endpointKit(orm: MikroORM, auth: AuthService, rateLimits: RateLimitService) {
  const json: Middleware = async (ctx, next) => {
    try {
      ctx.request.body = await readJsonBody(ctx);
    } catch (err) {
      if (err instanceof BodyError) throw new MalformedRequest(err.status, err.message);
      throw err;
    }
    await next();
  };
  return (options: { policy?: ErrorPolicy; body?: boolean; limit?: Exclude<RateLimited, 'request'> } = {}): Middleware[] => {
    const counted: RateLimited[] = options.limit ? ['request', options.limit] : ['request'];
    const policy: Middleware = async (ctx, next) => {
      ctx.state.errorPolicy = options.policy ?? 'standard';
      await next();
    };
    const authenticate: Middleware = async (ctx, next) => {
      const em = orm.em.fork();
      const scope = await rateLimits.authenticating(requestOrigin(ctx.req), () => auth.authenticate(() => em, ctx.req.headersDistinct.authorization));
      addLogFields({ company_id: scope.companyId, user_id: scope.userId });
      await rateLimits.consume(scope, counted);
      ctx.state.caller = { scope, em } satisfies Caller;
      await next();
    };
    const storable: Middleware = async (ctx, next) => {
      const problem = unstorable(ctx.request.body);
      if (problem) throw new MalformedRequest(400, problem);
      const reserved = reservedKeys(ctx.request.body);
      if (reserved.length > 0) throw new ValidationError(reserved);
      await next();
    };
    return options.body ? [policy, authenticate, wellFormedUrl, json, storable] : [policy, authenticate, wellFormedUrl];
  };
}

export type Endpoint = ReturnType<typeof endpointKit>;

/** Refuses content of other media types than `types` (415), for a route that parses its body itself. */
export const mediaType =
  (...types: string[]): Middleware =>
  async (ctx, next) => {
    if (hasContent(ctx) && !ctx.is(types)) throw new MalformedRequest(415, `Unsupported media type: send ${types.join(' or ')}`);
    await next();
  };
