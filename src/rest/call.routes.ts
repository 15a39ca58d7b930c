import Router from '@koa/router';
import { z } from 'zod';
import { CallService } from '../services/calls/call.service';
import type { InboundCallService } from '../services/calls/inbound/inbound-call.service';
import type { RecordingService } from '../services/calls/recordings/recording.service';
import { listCallsQuery } from '../services/calls/call.input';
import { callJson, callPageShape, callShape, serializeCall } from './call.serializer';
import { ok, okPage } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';

const tag = 'Calls';

export function callRoutes(api: RestApi, calls: CallService, inbound: InboundCallService, recordings: RecordingService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'simulateInboundCall',
      method: 'post',
      path: '/v1/calls/simulate-inbound',
      tag,
      summary: 'Simulate an incoming call to one of your numbers (a test call)',
      description:
        "Runs the path of a real incoming call with the simulated provider: answered by the number's agent (or its active inbound campaign's), matched to your contact by `from`; `busy` over the concurrent-call limit (docs/calls.md).",
      body: inbound.simulateInput,
      data: callShape,
    },
    async (ctx) => {
      ok(ctx, serializeCall(await inbound.simulate(ctx.state.caller, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'makeCall',
      method: 'post',
      path: '/v1/calls/make-call',
      tag,
      summary: 'Make a test call (interface 4.1)',
      description: 'Answers the call in `pstn-queued`; dialling follows (docs/calls.md). Unknown fields are ignored.',
      policy: 'make-call',
      limit: CallService.limits.makeCall,
      idempotent: async (ctx, [id]) => {
        ok(ctx, serializeCall(await calls.get(ctx.state.caller, id)));
      },
      body: calls.makeCallInput,
      data: callShape,
    },
    async (ctx) => {
      ok(ctx, serializeCall(await calls.makeCall(ctx.state.caller, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'listCalls',
      method: 'get',
      path: '/v1/calls',
      tag,
      summary: 'List calls, newest first, a page at a time',
      description:
        'Calls of the company, newest first, filtered by campaign, workspace, status and creation time; `data` is `{items, next_cursor}`: pass `next_cursor` as `cursor` for the next page (null on the last).',
      query: listCallsQuery,
      data: callPageShape,
    },
    async (ctx) => {
      okPage(ctx, await calls.listStored(ctx.state.caller, serviceInput(ctx, 'query')), callJson);
    },
  );
  api.route(
    router,
    {
      id: 'cancelCall',
      method: 'post',
      path: '/v1/calls/:id/cancel',
      tag,
      summary: 'Cancel a call not yet ended',
      description: 'Ends a call not yet ended: one not yet answered becomes `canceled`, an answered one is hung up and becomes `completed` (docs/calls.md); 409 when it already ended.',
      data: callShape,
      errors: { 404: notFound('call'), 409: 'The call has already ended.' },
    },
    async (ctx) => {
      ok(ctx, serializeCall(await calls.cancel(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'getCall',
      method: 'get',
      path: '/v1/calls/:id',
      tag,
      summary: 'Get a call',
      description: 'One call record of the company, in the make-call shape (interface 2.1).',
      data: callShape,
      errors: { 404: notFound('call') },
    },
    async (ctx) => {
      ok(ctx, serializeCall(await calls.get(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'getCallRecording',
      method: 'get',
      path: '/v1/calls/:id/recording',
      tag,
      summary: "Stream a call's recording",
      description:
        "The audio of the call's recording (`record_url`), WAV, fetched from the provider with the platform's credentials. Supports `Range` (206 with `Content-Range`; 416 past the end). 404 for a call without a recording, or another company's (docs/calls.md, \"Recording\").",
      data: z.string().meta({ format: 'binary' }).describe('WAV audio.'),
      unwrapped: true,
      dataType: 'audio/wav',
      errors: { 404: notFound('call, or a call without a recording'), 416: 'The range starts past the end of the recording.' },
    },
    async (ctx) => {
      const media = await recordings.media(ctx.state.caller, ctx.params.id, ctx.get('range') || undefined);
      ctx.body = media.body;
      ctx.status = media.status;
      ctx.type = media.type;
      ctx.set('accept-ranges', 'bytes');
      ctx.set('cache-control', 'private, no-store');
      if (media.length !== undefined) ctx.length = Number(media.length);
      if (media.range !== undefined) ctx.set('content-range', media.range);
    },
  );
  return router;
}
