import Router from '@koa/router';
import type { AgentService } from '../services/agent.service';
import { serializeAgent } from './agent.serializer';
import { ok } from './envelope';
import type { Endpoint, RestState } from './middleware';

export function agentRoutes(endpoint: Endpoint, agents: AgentService): Router<RestState> {
  const router = new Router<RestState>();
  router.get('/v1/ai-agent/templates', ...endpoint(), async (ctx) => {
    ok(ctx, (await agents.templates(ctx.state.caller)).map(serializeAgent));
  });
  router.get('/v1/ai-agent', ...endpoint(), async (ctx) => {
    ok(ctx, (await agents.list(ctx.state.caller, ctx.query)).map(serializeAgent));
  });
  router.get('/v1/ai-agent/:id', ...endpoint(), async (ctx) => {
    ok(ctx, serializeAgent(await agents.get(ctx.state.caller, ctx.params.id)));
  });
  router.post('/v1/ai-agent', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, serializeAgent(await agents.create(ctx.state.caller, ctx.request.body)));
  });
  router.patch('/v1/ai-agent/:id', ...endpoint({ body: true }), async (ctx) => {
    ok(ctx, serializeAgent(await agents.update(ctx.state.caller, ctx.params.id, ctx.request.body)));
  });
  router.delete('/v1/ai-agent/:id', ...endpoint(), async (ctx) => {
    await agents.delete(ctx.state.caller, ctx.params.id);
    ok(ctx, 'Agent deleted');
  });
  return router;
}
