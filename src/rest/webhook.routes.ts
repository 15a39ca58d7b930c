import Router from '@koa/router';
import type { WebhookService } from '../services/webhook.service';
import { ok } from './envelope';
import type { Endpoint, RestState } from './middleware';
import { serializeFlow } from './webhook.serializer';

export function webhookRoutes(endpoint: Endpoint, webhooks: WebhookService): Router<RestState> {
  const router = new Router<RestState>();
  router.get('/v1/integrations/templates', ...endpoint(), async (ctx) => {
    ok(ctx, (await webhooks.templates(ctx.state.caller)).map(serializeFlow));
  });
  router.post('/v1/integrations/templates/:id/use', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, serializeFlow(await webhooks.useTemplate(ctx.state.caller, ctx.params.id, ctx.request.body)));
  });
  router.get('/v1/webhooks', ...endpoint(), async (ctx) => {
    const workspace = ctx.query.workspace ?? ctx.query.workspace_id;
    ok(ctx, (await webhooks.list(ctx.state.caller, { workspace })).map(serializeFlow));
  });
  router.post('/v1/webhooks', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, serializeFlow(await webhooks.create(ctx.state.caller, ctx.request.body)));
  });
  router.get('/v1/webhooks/:id', ...endpoint(), async (ctx) => {
    ok(ctx, serializeFlow(await webhooks.get(ctx.state.caller, ctx.params.id)));
  });
  router.patch('/v1/webhooks/:id', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, serializeFlow(await webhooks.update(ctx.state.caller, ctx.params.id, ctx.request.body)));
  });
  router.post('/v1/webhooks/:id/rotate-secret', ...endpoint(), async (ctx) => {
    ok(ctx, serializeFlow(await webhooks.rotateSecret(ctx.state.caller, ctx.params.id)));
  });
  router.delete('/v1/webhooks/:id', ...endpoint(), async (ctx) => {
    await webhooks.delete(ctx.state.caller, ctx.params.id);
    ok(ctx, 'Webhook deleted');
  });
  return router;
}
