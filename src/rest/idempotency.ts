import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { IdempotencyService, KeyedRequest } from '../services/platform/idempotency.service';
import { mapError } from './envelope';
import type { RestState } from './middleware';

/** The answer a key keeps, as the service takes it. */
type StoredAnswer = Awaited<ReturnType<KeyedRequest<unknown>['rebuild']>>;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Answers, as the operation's handler does, the records its first request created (`ids`,
 * as the service linked them to the key): the answer of a key whose process died before
 * storing it.
 */
export type Rebuild = (ctx: RouterContext<RestState>, ids: string[]) => Promise<void>;

/**
 * The answer kept for a key: the response as the client got it, its body as the bytes
 * sent. Not kept: 400 (failed validation: the client fixes the body and retries with the
 * same key) and our own failures (5xx: the retry runs again, unless the request created
 * something, which the key then answers from).
 */
function keep(status: number, body: unknown): StoredAnswer | null {
  return status === 400 || status >= 500 ? null : { status, body: JSON.stringify(body) };
}

/**
 * The `idempotent` option of a REST operation (src/rest/openapi.ts): with an
 * `Idempotency-Key` header, the operation runs once per key and company; a repeat answers
 * the first answer byte for byte, with `Idempotent-Replayed: true` (docs/rest.md,
 * "Idempotent retries"). Runs after authentication and body parsing, so the key is the
 * caller's company's and the body compared is the parsed JSON value.
 */
export function idempotent(service: IdempotencyService): (rebuild: Rebuild) => RouterMiddleware<RestState> {
  return (rebuild) => async (ctx, next) => {
    // Present but empty is a bad key, not no key.
    if (ctx.headers['idempotency-key'] === undefined) {
      await next();
      return;
    }
    const key = service.parseKey(ctx.get(IDEMPOTENCY_HEADER), IDEMPOTENCY_HEADER);
    const outcome = await service.execute(ctx.state.caller, {
      key,
      request: [ctx.method, ctx.path, ctx.request.body ?? null],
      run: async (caller) => {
        ctx.state.caller = caller;
        await next();
        return { status: ctx.status, body: ctx.body };
      },
      keep: (result) => {
        if ('ok' in result) return keep(result.ok.status, result.ok.body);
        const mapped = mapError(result.error, ctx.state.errorPolicy);
        return keep(mapped.status, mapped.body);
      },
      rebuild: async (ids) => {
        await rebuild(ctx, ids);
        return { status: ctx.status, body: JSON.stringify(ctx.body) };
      },
    });
    if ('replayed' in outcome) {
      ctx.status = outcome.replayed.status;
      ctx.body = outcome.replayed.body;
      ctx.type = 'application/json';
      ctx.set(REPLAYED_HEADER, 'true');
    }
  };
}
