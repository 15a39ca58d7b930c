import Router from '@koa/router';
import { z } from 'zod';
import { FlowRunner } from '../services/flows/flow-runner';
import { listExecutionsInput, triggerInput } from '../services/flows/flow-execution.input';
import type { WebhookExecutionService } from '../services/flows/flow-execution.service';
import { ok } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';
import { executionDetailShape, executionItemShape, serializeExecutionDetail, serializeExecutionItem } from './webhook-execution.serializer';

const tag = 'Webhook flows';

/** Triggering flows and reading their executions (see docs/flows.md). */
export function webhookExecutionRoutes(api: RestApi, flows: FlowRunner, executions: WebhookExecutionService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'triggerWebhook',
      method: 'post',
      path: '/v1/webhooks/:id/trigger',
      tag,
      summary: 'Run a flow now with these variables',
      description: 'Answers the new execution as stored: `in_progress` when this replica sends its first step at once, `scheduled` when a job will (docs/flows.md). A flow without steps answers 400.',
      limit: FlowRunner.limits.trigger,
      idempotent: async (ctx, [id]) => {
        ok(ctx, serializeExecutionDetail({ execution: await executions.getById(ctx.state.caller, id), steps: [] }));
      },
      body: triggerInput,
      data: executionDetailShape,
      errors: { 404: notFound('webhook flow'), 409: 'The flow is `stopped`: it refuses triggers until its status is `running`.' },
    },
    async (ctx) => {
      const execution = await flows.trigger(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'));
      ok(ctx, serializeExecutionDetail({ execution, steps: [] }));
    },
  );
  api.route(
    router,
    {
      id: 'listWebhookExecutions',
      method: 'get',
      path: '/v1/webhooks/:id/executions',
      tag,
      summary: 'List the executions of a flow, newest first, a page at a time',
      description: 'Executions of one flow, newest first, a page at a time (`limit`, `cursor`).',
      query: listExecutionsInput,
      data: z.strictObject({ items: z.array(executionItemShape), next_cursor: z.string().nullable() }),
      errors: { 404: notFound('webhook flow') },
    },
    async (ctx) => {
      const page = await executions.list(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'query'));
      ok(ctx, { items: page.items.map(serializeExecutionItem), next_cursor: page.nextCursor });
    },
  );
  api.route(
    router,
    {
      id: 'getWebhookExecution',
      method: 'get',
      path: '/v1/webhooks/:id/executions/:executionId',
      tag,
      summary: 'Get an execution with its step log',
      description: 'One execution with its step log: every step of every attempt, what was sent and what came back (excerpts, credentials redacted).',
      data: executionDetailShape,
      errors: { 404: notFound('flow or execution') },
    },
    async (ctx) => {
      ok(ctx, serializeExecutionDetail(await executions.get(ctx.state.caller, ctx.params.id, ctx.params.executionId)));
    },
  );
  return router;
}
