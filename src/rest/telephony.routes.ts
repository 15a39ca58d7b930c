import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { CallLifecycleService } from '../services/calls/call-lifecycle.service';
import type { InboundCallService } from '../services/calls/inbound/inbound-call.service';
import { RELAY_ENDED_PATH } from '../services/telephony/conversation-relay';
import type { RecordingService } from '../services/calls/recordings/recording.service';
import type { AnsweringMachineService } from '../services/telephony/answering-machine.service';
import type { RelayService } from '../services/telephony/relay.service';
import type { TransferService } from '../services/telephony/transfer.service';
import { TWILIO_DIAL_ENDED_PATH, TWILIO_WHISPER_PATH } from '../services/telephony/transfer-twiml';
import { TWILIO_AMD_PATH, TWILIO_RECORDING_PATH, TWILIO_STATUS_PATH } from '../services/telephony/twilio.telephony';
import { MalformedRequest, ok } from './envelope';
import { mediaType, type RestState, wellFormedUrl } from './middleware';
import type { RestApi } from './openapi';

/**
 * What Twilio posts: its call fields (CallSid, CallStatus, From, To, CallDuration, Timestamp,
 * AnsweredBy...; for the relay's action, SessionId, SessionStatus, SessionDuration,
 * HandoffData...), all strings; the signature covers every one, so none is refused.
 */
const twilioForm = z.record(z.string(), z.string());

const parseForm = bodyParser({ enableTypes: ['form'], formLimit: '64kb' });

/**
 * The posted form, or a refusal in the envelope: a body over 64 KiB (413) or one that cannot
 * be read (400) is no callback of Twilio's, and never a 500.
 */
const form: Middleware = async (ctx, next) => {
  try {
    await parseForm(ctx, async () => undefined);
  } catch (err) {
    if ((err as { status?: unknown }).status === 413) throw new MalformedRequest(413, 'Request body too large (limit 64 KiB)');
    throw new MalformedRequest(400, 'Malformed form body');
  }
  await next();
};
const callIdQuery = z.object({ call_id: z.string().describe('The call, as put in the callback URL when the call was placed.') });
const statusQuery = z.object({
  call_id: z.string().optional().describe("The call, as put in the callback URL when the call was placed. Left out (incoming calls: the number's status callback), the posted CallSid names it."),
});

const signed = 'Called by Twilio, not by clients: authenticated by the `X-Twilio-Signature` header over PUBLIC_BASE_URL and the form (docs/calls.md).';

/**
 * Provider callbacks. Not behind bearer auth: each request is trusted only with the
 * provider's signature, checked by the service.
 */
export function telephonyRoutes(api: RestApi, services: TelephonyServices, publicBaseUrl: string): Router<RestState> {
  const { lifecycle, relay, transfers, inbound, answeringMachines, recordings } = services;
  const router = new Router<RestState>();
  const tag = 'Telephony callbacks';
  const common = { tag, auth: 'none', body: twilioForm, bodyType: 'application/x-www-form-urlencoded' } as const;
  /** The operation of a callback Twilio signs about one of our calls. */
  const callback = (id: string, path: string, summary: string, description: string, query: z.ZodObject) =>
    ({ ...common, id, method: 'post', path, summary, description, query, errors: { 403: 'Invalid Twilio signature.', 404: 'The provider is not Twilio, or the call is unknown.' } }) as const;
  /** A callback Twilio signs, answered with an empty `ok` once `receive` has taken it. */
  type Receive = (url: string, params: Record<string, string>, signature: string) => Promise<unknown>;
  const signedCallback = (id: string, path: string, summary: string, description: string, query: z.ZodObject, receive: Receive) =>
    api.route(router, { ...callback(id, path, summary, description, query), data: z.literal('') }, wellFormedUrl, mediaType('application/x-www-form-urlencoded'), form, async (ctx) => {
      await receive(`${publicBaseUrl}${ctx.originalUrl}`, formParams(ctx.request.body), ctx.get('x-twilio-signature'));
      ok(ctx, '');
    });
  signedCallback('twilioStatusCallback', TWILIO_STATUS_PATH, 'Twilio call status callback', signed, statusQuery, (...args) => lifecycle.receiveTwilioStatus(...args));
  signedCallback(
    'twilioAmdStatusCallback',
    TWILIO_AMD_PATH,
    'Twilio asynchronous answering-machine detection callback',
    `${signed} Stores who answered (\`AnsweredBy\`) and does what the agent's \`voicemail_action\` says (docs/calls.md, "Answering machines").`,
    callIdQuery,
    (...args) => answeringMachines.receiveTwilio(...args),
  );
  signedCallback(
    'twilioRecordingStatusCallback',
    TWILIO_RECORDING_PATH,
    'Twilio recording status callback',
    `${signed} A completed recording (\`RecordingSid\`) is kept and served at the call's \`record_url\` (docs/calls.md, "Recording").`,
    callIdQuery,
    (...args) => recordings.receiveTwilio(...args),
  );
  /** A callback Twilio signs about one of our calls, answered with the TwiML `answer` makes of it. */
  const twimlCallback = (id: string, path: string, summary: string, description: string, data: string, answer: (...args: Parameters<Receive>) => Promise<string>) =>
    api.route(router, { ...callback(id, path, summary, description, callIdQuery), data: z.string().describe(data), unwrapped: true, dataType: 'text/xml' }, wellFormedUrl, form, async (ctx) => {
      const twiml = await answer(`${publicBaseUrl}${ctx.originalUrl}`, formParams(ctx.request.body), ctx.get('x-twilio-signature'));
      ctx.type = 'text/xml';
      ctx.body = twiml;
    });
  twimlCallback(
    'twilioRelayEnded',
    RELAY_ENDED_PATH,
    'Twilio ConversationRelay action callback',
    "Called by Twilio, not by clients, when a call's ConversationRelay session ends (the `<Connect action>`): authenticated by the " +
      "`X-Twilio-Signature` header like the status callback. Records the session's end reason and answers TwiML: the transfer's `<Dial>`, " +
      'a new `<Connect><ConversationRelay>` for a session that dropped while the call is live (at most 3 times a call), else `<Hangup/>` (docs/calls.md).',
    'TwiML: `<Response><Dial action="...">...</Dial></Response>`, `<Response><Connect>...</Connect></Response>` or `<Response><Hangup/></Response>`.',
    (...args) => relay.sessionEnded(...args),
  );
  twimlCallback(
    'twilioDialEnded',
    TWILIO_DIAL_ENDED_PATH,
    'Twilio transfer `<Dial action>` callback',
    `${signed} Stores the transfer's result (\`DialCallStatus\`) and answers TwiML: \`<Hangup/>\`, or, for a warm transfer nobody took, ` +
      'a new `<Connect><ConversationRelay>`: the agent comes back (docs/calls.md, "Transfers").',
    'TwiML: `<Response><Hangup/></Response>` or `<Response><Connect>...</Connect></Response>`.',
    (...args) => transfers.dialEnded(...args),
  );
  twimlCallback(
    'twilioTransferWhisper',
    TWILIO_WHISPER_PATH,
    'Twilio warm transfer whisper (`<Number url>`)',
    `${signed} Fetched for the person who answered a warm transfer, before the caller is connected (the call named by \`ParentCallSid\`): ` +
      'answers TwiML saying a summary of the conversation (docs/calls.md, "Transfers").',
    'TwiML: `<Response><Say language="...">summary</Say></Response>`.',
    (...args) => transfers.whisper(...args),
  );
  api.route(
    router,
    {
      ...common,
      id: 'twilioIncomingCall',
      method: 'post',
      path: '/v1/telephony/twilio/voice',
      summary: 'Twilio incoming-call webhook (the number\'s "A call comes in" URL)',
      description: `${signed} Answers TwiML: the ConversationRelay to the number's agent, \`<Reject/>\` when no agent answers the number, \`<Reject reason="busy"/>\` over the company's concurrent-call limit.`,
      data: z.string().describe('TwiML'),
      unwrapped: true,
      dataType: 'text/xml',
      errors: { 403: 'Invalid Twilio signature: nothing is stored.', 404: 'The provider is not Twilio.' },
    },
    wellFormedUrl,
    form,
    async (ctx) => {
      const twiml = await inbound.receiveTwilio(`${publicBaseUrl}${ctx.originalUrl}`, formParams(ctx.request.body), ctx.get('x-twilio-signature'));
      ctx.type = 'text/xml';
      ctx.body = twiml;
    },
  );
  return router;
}

/** The services Twilio's callbacks reach. */
export interface TelephonyServices {
  lifecycle: CallLifecycleService;
  relay: RelayService;
  transfers: TransferService;
  inbound: InboundCallService;
  answeringMachines: AnsweringMachineService;
  recordings: RecordingService;
}

/** A parsed form as Twilio's flat string parameters (a repeated field counts once). */
function formParams(body: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries((body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? String(v[0]) : String(v)]));
}
