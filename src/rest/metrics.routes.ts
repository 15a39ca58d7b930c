import { createHash, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import Router from '@koa/router';
import ipaddr from 'ipaddr.js';
import type { Metrics } from '../metrics';
import { ForbiddenError, UnauthenticatedError } from '../services/shared/errors';
import type { SystemStateService } from '../services/platform/system-state.service';
import type { RestState } from './middleware';

export interface MetricsRouteOptions {
  metrics: Metrics;
  state: SystemStateService;
  orm: MikroORM;
  /** METRICS_TOKEN: when set, scrapes must send `Authorization: Bearer <token>`; unset, only loopback clients may scrape. */
  token: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Compares in constant time (digests first, so lengths never differ). Two `Authorization`
 * headers are ambiguous and never match, as for the API (AuthService.verify).
 */
function bearerMatches(authorization: readonly string[] | undefined, token: string): boolean {
  const given = authorization?.length === 1 ? (/^Bearer\s+(\S+)\s*$/i.exec(authorization[0])?.[1] ?? '') : '';
  return timingSafeEqual(digest(given), digest(token));
}

/** Headers a proxy adds when it relays someone else's request. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * A client on this machine: the socket's peer is a loopback address (IPv4-mapped ones
 * included), never what `X-Forwarded-For` claims (anyone can send it). A loopback connection
 * carrying a forwarding header is a proxy on this machine relaying another client: not local.
 */
export function fromLoopback(req: http.IncomingMessage): boolean {
  const peer = req.socket.remoteAddress;
  if (peer === undefined || !ipaddr.isValid(peer) || ipaddr.process(peer).range() !== 'loopback') return false;
  return FORWARDING_HEADERS.every((name) => req.headers[name] === undefined);
}

/**
 * `GET /metrics`: Prometheus text format, outside the JSON envelope because Prometheus
 * reads nothing else. Refusals (401, 403) stay in the envelope. Operator-facing, not a tenant
 * operation, and it counts every tenant's records: guarded by METRICS_TOKEN when set (from
 * any address), else answered to loopback clients only (docs/operations.md, "Metrics").
 */
export function metricsRoutes({ metrics, state, orm, token }: MetricsRouteOptions): Router<RestState> {
  const router = new Router<RestState>();
  router.get('/metrics', async (ctx) => {
    if (token !== undefined) {
      if (!bearerMatches(ctx.req.headersDistinct.authorization, token)) throw new UnauthenticatedError();
    } else if (!fromLoopback(ctx.req)) {
      throw new ForbiddenError('Forbidden');
    }
    const text = await metrics.render(await state.read(orm.em.fork()));
    ctx.type = metrics.contentType;
    ctx.body = text;
  });
  return router;
}
