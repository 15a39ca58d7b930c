import Router from '@koa/router';
import type { DoNotCallService } from '../services/do-not-call.service';
import { serializeDoNotCallNumber } from './do-not-call.serializer';
import { ok } from './envelope';
import type { Endpoint, RestState } from './middleware';

export function doNotCallRoutes(endpoint: Endpoint, doNotCall: DoNotCallService): Router<RestState> {
  const router = new Router<RestState>();
  router.post('/v1/do-not-call', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, (await doNotCall.add(ctx.state.caller, ctx.request.body)).map(serializeDoNotCallNumber));
  });
  router.get('/v1/do-not-call', ...endpoint(), async (ctx) => {
    const page = await doNotCall.list(ctx.state.caller, ctx.query);
    ok(ctx, { items: page.items.map(serializeDoNotCallNumber), next_cursor: page.nextCursor });
  });
  // The router has already percent-decoded the number: %2B14155550123 arrives as +14155550123.
  router.delete('/v1/do-not-call/:number', ...endpoint(), async (ctx) => {
    await doNotCall.remove(ctx.state.caller, ctx.params.number);
    ok(ctx, 'Number removed');
  });
  return router;
}
