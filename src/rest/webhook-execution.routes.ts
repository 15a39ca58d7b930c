import Router from '@koa/router';
import type { FlowRunner } from '../services/flows/flow-runner';
import type { WebhookExecutionService } from '../services/webhook-execution.service';
import { ok } from './envelope';
import type { Endpoint, RestState } from './middleware';
import { serializeExecutionDetail, serializeExecutionItem } from './webhook-execution.serializer';

/** Triggering flows and reading their executions (see docs/flows.md). */
export function webhookExecutionRoutes(endpoint: Endpoint, flows: FlowRunner, executions: WebhookExecutionService): Router<RestState> {
  const router = new Router<RestState>();
  router.post('/v1/webhooks/:id/trigger', ...endpoint({ body: true, limit: 'flow-trigger' }), async (ctx) => {
    const execution = await flows.trigger(ctx.state.caller, ctx.params.id, ctx.request.body);
    ok(ctx, serializeExecutionDetail({ execution, steps: [] }));
  });
  router.get('/v1/webhooks/:id/executions', ...endpoint(), async (ctx) => {
    const page = await executions.list(ctx.state.caller, ctx.params.id, ctx.query);
    ok(ctx, { items: page.items.map(serializeExecutionItem), next_cursor: page.nextCursor });
  });
  router.get('/v1/webhooks/:id/executions/:executionId', ...endpoint(), async (ctx) => {
    ok(ctx, serializeExecutionDetail(await executions.get(ctx.state.caller, ctx.params.id, ctx.params.executionId)));
  });
  return router;
}
