import type http from 'node:http';

/**
 * The client's address as Koa's `ctx.ip` gives it with `app.proxy` on (src/app.ts): the first
 * `X-Forwarded-For` entry, else the socket's peer. Written out for the requests answered
 * outside Koa (hot reads, websocket upgrades), and used by the Koa routes too, so that every
 * transport keys the failed-authentication limit on one address (docs/operations.md).
 */
export function clientAddress(req: http.IncomingMessage): string {
  // Node joins repeated X-Forwarded-For lines into one value, as Koa reads it.
  const forwarded = req.headers['x-forwarded-for'];
  const first = typeof forwarded === 'string' ? forwarded.split(/\s*,\s*/)[0] : undefined;
  return first || req.socket.remoteAddress || '';
}
