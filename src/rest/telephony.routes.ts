import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { CallLifecycleService } from '../services/call-lifecycle.service';
import type { InboundCallService } from '../services/inbound/inbound-call.service';
import { ok } from './envelope';
import { type RestState, wellFormedUrl } from './middleware';
import type { RestApi } from './openapi';

/**
 * What Twilio posts: its call fields (CallSid, CallStatus, From, To, CallDuration,
 * Timestamp, AnsweredBy...), all strings; the signature covers every one, so none is refused.
 */
const twilioForm = z.record(z.string(), z.string());
const twilioStatusQuery = z.object({
  call_id: z.string().optional().describe('The call, as put in the status callback URL when the call was placed; left out (incoming calls), the posted CallSid names it.'),
});

/** The posted form, one string per field (the first, if a field is repeated). */
function formOf(ctx: Context): Record<string, string> {
  return Object.fromEntries(
    Object.entries((ctx.request.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? String(v[0]) : String(v)]),
  );
}

const signed = 'Called by Twilio, not by clients: authenticated by the `X-Twilio-Signature` header over PUBLIC_BASE_URL and the form (docs/calls.md).';

/**
 * Provider callbacks. Not behind bearer auth: each request is trusted only with the
 * provider's signature, checked by the service.
 */
export function telephonyRoutes(api: RestApi, lifecycle: CallLifecycleService, inbound: InboundCallService, publicBaseUrl: string): Router<RestState> {
  const router = new Router<RestState>();
  const form = bodyParser({ enableTypes: ['form'], formLimit: '64kb' });
  const tag = 'Telephony callbacks';
  api.route(
    router,
    {
      id: 'twilioStatusCallback',
      method: 'post',
      path: '/v1/telephony/twilio/status',
      tag,
      summary: 'Twilio call status callback',
      description: signed,
      auth: 'none',
      query: twilioStatusQuery,
      body: twilioForm,
      bodyType: 'application/x-www-form-urlencoded',
      data: z.literal(''),
      errors: { 403: 'Invalid Twilio signature.', 404: 'The provider is not Twilio, or the call is unknown.' },
    },
    wellFormedUrl,
    form,
    async (ctx) => {
      await lifecycle.receiveTwilioStatus(`${publicBaseUrl}${ctx.originalUrl}`, formOf(ctx), ctx.get('x-twilio-signature'));
      ok(ctx, '');
    },
  );
  api.route(
    router,
    {
      id: 'twilioIncomingCall',
      method: 'post',
      path: '/v1/telephony/twilio/voice',
      tag,
      summary: "Twilio incoming-call webhook (the number's \"A call comes in\" URL)",
      description: `${signed} Answers TwiML: the ConversationRelay to the number's agent, \`<Reject/>\` when no agent answers the number, \`<Reject reason="busy"/>\` over the company's concurrent-call limit.`,
      auth: 'none',
      body: twilioForm,
      bodyType: 'application/x-www-form-urlencoded',
      unwrapped: true,
      responseType: 'text/xml',
      data: z.string().describe('TwiML'),
      errors: { 403: 'Invalid Twilio signature: nothing is stored.', 404: 'The provider is not Twilio.' },
    },
    wellFormedUrl,
    form,
    async (ctx) => {
      const twiml = await inbound.receiveTwilio(`${publicBaseUrl}${ctx.originalUrl}`, formOf(ctx), ctx.get('x-twilio-signature'));
      ctx.type = 'text/xml';
      ctx.body = twiml;
    },
  );
  return router;
}
