import Router from '@koa/router';
import type { CallService } from '../services/call.service';
import { serializeCall } from './call.serializer';
import { ok } from './envelope';
import type { Endpoint, RestState } from './middleware';

export function callRoutes(endpoint: Endpoint, calls: CallService): Router<RestState> {
  const router = new Router<RestState>();
  router.post('/v1/calls/make-call', ...endpoint({ policy: 'make-call', body: true, limit: 'make-call' }), async (ctx) => {
    ok(ctx, serializeCall(await calls.makeCall(ctx.state.caller, ctx.request.body)));
  });
  router.get('/v1/calls', ...endpoint(), async (ctx) => {
    const page = await calls.list(ctx.state.caller, ctx.query);
    ok(ctx, { items: page.items.map(serializeCall), next_cursor: page.nextCursor });
  });
  router.post('/v1/calls/:id/cancel', ...endpoint(), async (ctx) => {
    ok(ctx, serializeCall(await calls.cancel(ctx.state.caller, ctx.params.id)));
  });
  router.get('/v1/calls/:id', ...endpoint(), async (ctx) => {
    ok(ctx, serializeCall(await calls.get(ctx.state.caller, ctx.params.id)));
  });
  return router;
}
