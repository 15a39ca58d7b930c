import Router from '@koa/router';
import { z } from 'zod';
import type { CampaignService } from '../services/campaigns/campaign.service';
import { createCampaignInput, updateCampaignInput } from '../services/campaigns/campaign.contract';
import { byWorkspaceInput } from '../services/campaigns/campaign.input';
import { campaignAudienceShape, campaignJson, campaignShape, campaignStatsShape, serializeCampaign, serializeCampaignAudience, serializeCampaignStats } from './campaign.serializer';
import { audienceInput } from '../services/campaigns/campaign.input';
import { ok, okJson } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';

const tag = 'Campaigns';

export function campaignRoutes(api: RestApi, campaigns: CampaignService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'updateCampaign',
      method: 'post',
      path: '/compaign/v1/campaign/update/:id',
      tag,
      summary: 'Update a campaign (interface 4.2)',
      description: 'Partial: fields left out stay as they were. Unknown fields are ignored. Every failure but credentials answers HTTP 200 `error`.',
      policy: 'legacy-200',
      body: updateCampaignInput,
      data: z.literal('Campaign updated'),
    },
    async (ctx) => {
      await campaigns.update(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'));
      ok(ctx, 'Campaign updated');
    },
  );
  api.route(
    router,
    {
      id: 'listCampaigns',
      method: 'get',
      path: '/v1/campaigns/list',
      tag,
      summary: 'List campaigns (interface 4.6)',
      description: 'Every campaign of the company, all workspaces, newest first; no pagination, as documented.',
      data: z.array(campaignShape),
    },
    async (ctx) => {
      ok(ctx, (await campaigns.listAll(ctx.state.caller)).map(serializeCampaign));
    },
  );
  api.route(
    router,
    {
      id: 'listCampaignsByWorkspace',
      method: 'get',
      path: '/v1/campaigns/by-workspace/:workspace',
      tag,
      summary: 'List the campaigns of a workspace (interface 4.4)',
      description: 'The campaigns of one workspace of the company, newest first; an unknown workspace answers an empty list.',
      params: byWorkspaceInput,
      data: z.array(campaignShape),
    },
    async (ctx) => {
      ok(ctx, (await campaigns.listByWorkspace(ctx.state.caller, ctx.params.workspace)).map(serializeCampaign));
    },
  );
  api.route(
    router,
    {
      id: 'getCampaign',
      method: 'get',
      path: '/v1/campaigns/by-id/:id',
      tag,
      summary: 'Get a campaign (interface 4.5)',
      description: 'One campaign of the company, with the related ids that update accepts.',
      data: campaignShape,
      errors: { 404: notFound('campaign') },
    },
    async (ctx) => {
      okJson(ctx, campaignJson(await campaigns.show(ctx.state.caller.scope, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'getCampaignStats',
      method: 'get',
      path: '/v1/campaigns/by-id/:id/stats',
      tag,
      summary: "A campaign's contacts by state: selected, settled, picked up, failed, live, waiting, skipped (by reason), next attempt",
      description: 'Counts of the contacts the campaign selected, by state, and when its next attempt is due (docs/campaigns.md).',
      data: campaignStatsShape,
      errors: { 404: notFound('campaign') },
    },
    async (ctx) => {
      ok(ctx, serializeCampaignStats(await campaigns.stats(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'getCampaignAudience',
      method: 'get',
      path: '/v1/campaigns/by-id/:id/audience',
      tag,
      summary: 'Who the campaign will call: contacts matched, callable, skipped by reason, and a sample',
      description:
        'Counted with the dialer\'s own selection and skip rules, before or after activation; `limit` (0 to 100, default 10) callable contacts as a sample, newest first (docs/campaigns.md, "Audience preview").',
      query: audienceInput,
      data: campaignAudienceShape,
      errors: { 404: notFound('campaign') },
    },
    async (ctx) => {
      ok(ctx, serializeCampaignAudience(await campaigns.audience(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'query'))));
    },
  );
  api.route(
    router,
    {
      id: 'createCampaign',
      method: 'post',
      path: '/v1/campaigns',
      tag,
      summary: 'Create a campaign',
      idempotent: async (ctx, [id]) => ok(ctx, serializeCampaign(await campaigns.get(ctx.state.caller, id))),
      description: 'Creates a campaign, `draft` unless a status is given; setting it `active` later starts the dialer.',
      body: createCampaignInput,
      data: campaignShape,
    },
    async (ctx) => {
      ok(ctx, serializeCampaign(await campaigns.create(ctx.state.caller, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'deleteCampaign',
      method: 'delete',
      path: '/v1/campaigns/:id',
      tag,
      summary: 'Delete a campaign (soft)',
      description: 'Soft-deletes the campaign: gone from reads and lists, still shown by the calls that name it.',
      data: z.literal('Campaign deleted'),
      errors: { 404: notFound('campaign') },
    },
    async (ctx) => {
      await campaigns.delete(ctx.state.caller, ctx.params.id);
      ok(ctx, 'Campaign deleted');
    },
  );
  return router;
}
