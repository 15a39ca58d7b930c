import Router from '@koa/router';
import type { ContactService } from '../services/contact.service';
import { serializeContact } from './contact.serializer';
import { ok } from './envelope';
import type { Endpoint, RestState } from './middleware';

export function contactRoutes(endpoint: Endpoint, contacts: ContactService): Router<RestState> {
  const router = new Router<RestState>();
  router.get('/compaign/v1/contact', ...endpoint({ policy: 'legacy-200' }), async (ctx) => {
    ok(ctx, (await contacts.list(ctx.state.caller)).map(serializeContact));
  });
  router.post('/v1/contacts', ...endpoint({ body: true }), async (ctx) => {
    const created = await contacts.create(ctx.state.caller, ctx.request.body);
    ok(ctx, Array.isArray(created) ? created.map(serializeContact) : serializeContact(created));
  });
  router.get('/v1/contacts/:id', ...endpoint(), async (ctx) => {
    ok(ctx, serializeContact(await contacts.get(ctx.state.caller, ctx.params.id)));
  });
  router.patch('/v1/contacts/:id', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, serializeContact(await contacts.update(ctx.state.caller, ctx.params.id, ctx.request.body)));
  });
  router.delete('/v1/contacts/:id', ...endpoint(), async (ctx) => {
    await contacts.delete(ctx.state.caller, ctx.params.id);
    ok(ctx, 'Contact deleted');
  });
  return router;
}
