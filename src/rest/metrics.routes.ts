import { createHash, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import Router from '@koa/router';
import type { Metrics } from '../metrics';
import { UnauthenticatedError } from '../services/errors';
import type { SystemStateService } from '../services/system-state.service';
import type { RestState } from './middleware';

export interface MetricsRouteOptions {
  metrics: Metrics;
  state: SystemStateService;
  orm: MikroORM;
  /** METRICS_TOKEN: when set, scrapes must send `Authorization: Bearer <token>`. */
  token: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Compares in constant time (digests first, so lengths never differ). Two `Authorization`
 * headers are ambiguous and never match, as for the API (AuthService.verify).
 */
function bearerMatches(authorization: readonly string[] | undefined, token: string): boolean {
  const given = authorization?.length === 1 ? (/^Bearer\s+(\S+)\s*$/i.exec(authorization[0]!)?.[1] ?? '') : '';
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * `GET /metrics`: Prometheus text format, outside the JSON envelope because Prometheus
 * reads nothing else. Refusals (401) stay in the envelope. Operator-facing, not a tenant
 * operation: guarded by METRICS_TOKEN, not by API keys.
 */
export function metricsRoutes({ metrics, state, orm, token }: MetricsRouteOptions): Router<RestState> {
  const router = new Router<RestState>();
  router.get('/metrics', async (ctx) => {
    if (token !== undefined && !bearerMatches(ctx.req.headersDistinct.authorization, token)) throw new UnauthenticatedError();
    const text = await metrics.render(await state.read(orm.em.fork()));
    ctx.type = metrics.contentType;
    ctx.body = text;
  });
  return router;
}
