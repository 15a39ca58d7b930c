import Router from '@koa/router';
import { z } from 'zod';
import type { HealthService } from '../services/platform/health.service';
import { ok } from './envelope';
import type { RestState } from './middleware';
import type { RestApi } from './openapi';

const tag = 'Operations';

const readinessShape = z.strictObject({
  checks: z.strictObject({
    database: z.enum(['ok', 'unreachable']).describe('`select 1` answered within 2 s.'),
    migrations: z.string().describe('`ok`, or `N pending`: this code expects migrations the database lacks (read at start).'),
    workers: z.enum(['ok', 'disabled', 'stopped']).describe('Job workers of this replica; `disabled` on a JOB_WORKERS=0 replica, which is still ready.'),
  }),
});

/**
 * Probes for load balancers and orchestrators, without authentication. Both answer in the
 * envelope, but a probe needs only the status code.
 */
export function healthRoutes(api: RestApi, health: HealthService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'liveness',
      method: 'get',
      path: '/healthz',
      tag,
      summary: 'Liveness: the process answers (touches nothing else)',
      description: 'Answers 200 while the process runs; for the orchestrator, without credentials.',
      auth: 'none',
      data: z.strictObject({ checks: z.strictObject({ process: z.literal('ok') }) }),
    },
    (ctx) => {
      ok(ctx, { checks: { process: 'ok' } });
    },
  );
  api.route(
    router,
    {
      id: 'readiness',
      method: 'get',
      path: '/readyz',
      tag,
      summary: 'Readiness: database reachable, migrations applied, job workers running',
      description: 'Answers 200 when this replica can serve (database reachable, migrations applied, job workers running), 503 `Not ready` otherwise.',
      auth: 'none',
      data: readinessShape,
      errors: { 503: { description: 'A check failed: take this replica out of rotation.', message: 'Not ready', data: readinessShape } },
    },
    async (ctx) => {
      const { ready, checks } = await health.readiness();
      if (ready) {
        ok(ctx, { checks });
        return;
      }
      ctx.status = 503;
      ctx.body = { status: 'error', message: 'Not ready', data: { checks } };
    },
  );
  return router;
}
