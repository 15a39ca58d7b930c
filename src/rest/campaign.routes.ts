import Router from '@koa/router';
import type { CampaignService } from '../services/campaign.service';
import { serializeCampaign, serializeCampaignStats } from './campaign.serializer';
import { ok } from './envelope';
import type { Endpoint, RestState } from './middleware';

export function campaignRoutes(endpoint: Endpoint, campaigns: CampaignService): Router<RestState> {
  const router = new Router<RestState>();
  router.post('/compaign/v1/campaign/update/:id', ...endpoint({ policy: 'legacy-200', body: true }), async (ctx) => {
    await campaigns.update(ctx.state.caller, ctx.params.id, ctx.request.body);
    ok(ctx, 'Campaign updated');
  });
  router.get('/v1/campaigns/list', ...endpoint(), async (ctx) => {
    ok(ctx, (await campaigns.listAll(ctx.state.caller)).map(serializeCampaign));
  });
  router.get('/v1/campaigns/by-workspace/:workspace', ...endpoint(), async (ctx) => {
    ok(ctx, (await campaigns.listByWorkspace(ctx.state.caller, ctx.params.workspace)).map(serializeCampaign));
  });
  router.get('/v1/campaigns/by-id/:id', ...endpoint(), async (ctx) => {
    ok(ctx, serializeCampaign(await campaigns.get(ctx.state.caller, ctx.params.id)));
  });
  router.get('/v1/campaigns/:id/stats', ...endpoint(), async (ctx) => {
    ok(ctx, serializeCampaignStats(await campaigns.stats(ctx.state.caller, ctx.params.id)));
  });
  router.post('/v1/campaigns', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, serializeCampaign(await campaigns.create(ctx.state.caller, ctx.request.body)));
  });
  router.delete('/v1/campaigns/:id', ...endpoint(), async (ctx) => {
    await campaigns.delete(ctx.state.caller, ctx.params.id);
    ok(ctx, 'Campaign deleted');
  });
  return router;
}
