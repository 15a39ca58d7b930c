import type http from 'node:http';
import type { RequestOrigin } from '../services/platform/rate-limit.service';

/**
 * Where a request says it comes from, as the failed-authentication limit reads it (its
 * `clientAddress` rule, TRUST_PROXY_HOPS): the same on every transport, Koa's routes, the
 * requests answered outside Koa (hot reads) and websocket upgrades (docs/operations.md).
 */
export function requestOrigin(req: http.IncomingMessage): RequestOrigin {
  // Node joins repeated X-Forwarded-For lines into one value, as Koa reads it.
  const forwarded = req.headers['x-forwarded-for'];
  return { forwardedFor: typeof forwarded === 'string' ? forwarded : undefined, peer: req.socket.remoteAddress };
}
