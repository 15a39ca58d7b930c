import cors from '@koa/cors';
import type { Context, Middleware } from 'koa';

/**
 * Request headers a browser page may send: credentials, JSON bodies, retries, request ids;
 * the trace context browser SDKs add to every fetch (W3C `traceparent`, `tracestate`,
 * `baggage`; Sentry's `sentry-trace`), and Apollo Client's CSRF-prevention and operation
 * headers. A header left out here fails the whole request in the browser, not just the header.
 */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Request-Id',
  'traceparent',
  'tracestate',
  'baggage',
  'sentry-trace',
  'apollo-require-preflight',
  'x-apollo-operation-name',
];
/** Response headers a page may read besides the CORS-safelisted ones (`Allow` comes with a 405). */
const EXPOSED_HEADERS = ['Retry-After', 'X-Request-Id', 'Idempotent-Replayed', 'Allow'];
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** How long a browser may reuse a preflight answer, in seconds (Chromium caps it at 7200). */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for every route (REST, GraphQL, /openapi.json), configured once: the allowed
 * origins (`*`, or a list) get the headers; any other origin gets none, so its browser
 * withholds the answer. No credentials mode: Switchboard reads bearer tokens, never cookies.
 * A preflight (OPTIONS with Access-Control-Request-Method) from an allowed origin answers
 * 204 here; everything else goes on, and the CORS headers set here stay on the answer
 * whatever it is, error envelopes included, since `handleErrors` runs inside this.
 */
export function corsPolicy(origins: '*' | readonly string[]): Middleware {
  const allowed = new Set(origins);
  return cors({
    // '' means "not allowed": @koa/cors then sets no CORS header at all.
    origin: origins === '*' ? '*' : (ctx: Context) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ALLOWED_METHODS,
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
}
