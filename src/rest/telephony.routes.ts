import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { z } from 'zod';
import type { CallLifecycleService } from '../services/call-lifecycle.service';
import { ok } from './envelope';
import { mediaType, type RestState, wellFormedUrl } from './middleware';
import type { RestApi } from './openapi';

/**
 * What Twilio posts: its status fields (CallSid, CallStatus, CallDuration, Timestamp,
 * AnsweredBy...), all strings; the signature covers every one, so none is refused.
 */
const twilioStatusForm = z.record(z.string(), z.string());
const twilioStatusQuery = z.object({ call_id: z.string().describe('The call, as put in the status callback URL when the call was placed.') });

/**
 * Provider callbacks. Not behind bearer auth: each request is trusted only with the
 * provider's signature, checked by the service.
 */
export function telephonyRoutes(api: RestApi, lifecycle: CallLifecycleService, publicBaseUrl: string): Router<RestState> {
  const router = new Router<RestState>();
  const form = bodyParser({ enableTypes: ['form'], formLimit: '64kb' });
  api.route(
    router,
    {
      id: 'twilioStatusCallback',
      method: 'post',
      path: '/v1/telephony/twilio/status',
      tag: 'Telephony callbacks',
      summary: 'Twilio call status callback',
      description: 'Called by Twilio, not by clients: authenticated by the `X-Twilio-Signature` header over PUBLIC_BASE_URL and the form (docs/calls.md).',
      auth: 'none',
      query: twilioStatusQuery,
      body: twilioStatusForm,
      bodyType: 'application/x-www-form-urlencoded',
      data: z.literal(''),
      errors: { 403: 'Invalid Twilio signature.', 404: 'The provider is not Twilio, or the call is unknown.' },
    },
    wellFormedUrl,
    mediaType('application/x-www-form-urlencoded'),
    form,
    async (ctx) => {
      const params = Object.fromEntries(
        Object.entries((ctx.request.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? String(v[0]) : String(v)]),
      );
      await lifecycle.receiveTwilioStatus(`${publicBaseUrl}${ctx.originalUrl}`, params, ctx.get('x-twilio-signature'));
      ok(ctx, '');
    },
  );
  return router;
}
