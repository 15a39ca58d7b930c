import Router from '@koa/router';
import type { PhoneNumberService } from '../services/phone-number.service';
import { ok } from './envelope';
import type { Endpoint, RestState } from './middleware';
import { serializePhoneNumber } from './phone-number.serializer';

export function phoneNumberRoutes(endpoint: Endpoint, numbers: PhoneNumberService): Router<RestState> {
  const router = new Router<RestState>();
  router.get('/v1/phone-numbers', ...endpoint(), async (ctx) => {
    ok(ctx, (await numbers.list(ctx.state.caller)).map(serializePhoneNumber));
  });
  router.post('/v1/phone-numbers', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, serializePhoneNumber(await numbers.create(ctx.state.caller, ctx.request.body)));
  });
  router.delete('/v1/phone-numbers/:id', ...endpoint(), async (ctx) => {
    await numbers.delete(ctx.state.caller, ctx.params.id);
    ok(ctx, 'Phone number deleted');
  });
  return router;
}
