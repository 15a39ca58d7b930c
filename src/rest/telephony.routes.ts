import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { CallLifecycleService } from '../services/call-lifecycle.service';
import { ok } from './envelope';
import { type RestState, wellFormedUrl } from './middleware';

/**
 * Provider callbacks. Not behind bearer auth: each request is trusted only with the
 * provider's signature, checked by the service.
 */
export function telephonyRoutes(lifecycle: CallLifecycleService, publicBaseUrl: string): Router<RestState> {
  const router = new Router<RestState>();
  const form = bodyParser({ enableTypes: ['form'], formLimit: '64kb' });
  router.post('/v1/telephony/twilio/status', wellFormedUrl, form, async (ctx) => {
    const params = Object.fromEntries(
      Object.entries((ctx.request.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? String(v[0]) : String(v)]),
    );
    await lifecycle.receiveTwilioStatus(`${publicBaseUrl}${ctx.originalUrl}`, params, ctx.get('x-twilio-signature'));
    ok(ctx, '');
  });
  return router;
}
