import Router from '@koa/router';
import { z } from 'zod';
import { createWebhookInput, listWebhooksInput, updateWebhookInput, useTemplateInput } from '../services/flows/flow.input';
import type { WebhookService } from '../services/flows/flow.service';
import { ok } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';
import { flowShape, flowWithSecretShape, serializeFlow, serializeFlowWithSecret } from './webhook.serializer';

const tag = 'Webhook flows';

/** The documented listing names no parameter (interface 4.11): both names are read. */
const listQuery = listWebhooksInput.extend({ workspace_id: listWebhooksInput.shape.workspace.describe('Same as `workspace`, read when `workspace` is absent or empty.') });

export function webhookRoutes(api: RestApi, webhooks: WebhookService): Router<RestState> {
  const router = new Router<RestState>();
  const flow = notFound('webhook flow');
  api.route(
    router,
    {
      id: 'listIntegrationTemplates',
      method: 'get',
      path: '/v1/integrations/templates',
      tag,
      summary: 'List the integration templates (interface 4.10)',
      description: 'The built-in flow catalogue, readable by every company; use one to copy it into your flows.',
      data: z.array(flowShape),
    },
    async (ctx) => {
      ok(ctx, (await webhooks.templates(ctx.state.caller)).map(serializeFlow));
    },
  );
  api.route(
    router,
    {
      id: 'useIntegrationTemplate',
      method: 'post',
      path: '/v1/integrations/templates/:id/use',
      tag,
      summary: "Copy an integration template into the company's flows",
      description: "The answer carries the new flow's signing `secret`, shown only this once.",
      body: useTemplateInput,
      data: flowWithSecretShape,
      errors: { 404: 'Unknown template.' },
    },
    async (ctx) => {
      ok(ctx, serializeFlowWithSecret(await webhooks.useTemplate(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'listWebhooks',
      method: 'get',
      path: '/v1/webhooks',
      tag,
      summary: 'List the flows of a workspace (interface 4.11)',
      description: 'The flows of one workspace of the company (`default` when left out), without deleted ones, newest first; no `secret`.',
      query: listQuery,
      data: z.array(flowShape),
    },
    async (ctx) => {
      const { workspace, workspaceId } = serviceInput<{ workspace?: string; workspaceId?: string }>(ctx, 'query');
      ok(ctx, (await webhooks.list(ctx.state.caller, { workspace: workspace || workspaceId })).map(serializeFlow));
    },
  );
  api.route(
    router,
    {
      id: 'createWebhook',
      method: 'post',
      path: '/v1/webhooks',
      tag,
      summary: 'Create a flow',
      description: "The answer carries the flow's signing `secret` (`whsec_...`), shown only this once.",
      body: createWebhookInput,
      data: flowWithSecretShape,
    },
    async (ctx) => {
      ok(ctx, serializeFlowWithSecret(await webhooks.create(ctx.state.caller, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'getWebhook',
      method: 'get',
      path: '/v1/webhooks/:id',
      tag,
      summary: 'Get a flow',
      description: 'One flow of the company with its steps and latest 20 executions; no `secret`.',
      data: flowShape,
      errors: { 404: flow },
    },
    async (ctx) => {
      ok(ctx, serializeFlow(await webhooks.get(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'updateWebhook',
      method: 'patch',
      path: '/v1/webhooks/:id',
      tag,
      summary: 'Update a flow',
      description: '`steps`, `variables` and `predefinedVariables`, when sent, replace the stored ones whole.',
      body: updateWebhookInput,
      data: flowShape,
      errors: { 404: flow },
    },
    async (ctx) => {
      ok(ctx, serializeFlow(await webhooks.update(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'rotateWebhookSecret',
      method: 'post',
      path: '/v1/webhooks/:id/rotate-secret',
      tag,
      summary: 'Replace the signing secret; the answer shows the new one once',
      description: 'Makes a new signing secret; requests are signed with it from now on. The answer is the only one that shows it.',
      data: flowWithSecretShape,
      errors: { 404: flow },
    },
    async (ctx) => {
      ok(ctx, serializeFlowWithSecret(await webhooks.rotateSecret(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'deleteWebhook',
      method: 'delete',
      path: '/v1/webhooks/:id',
      tag,
      summary: 'Delete a flow (status `deleted`)',
      description: 'Soft-deletes the flow: status `deleted`, hidden from lists, triggers refused.',
      data: z.literal('Webhook deleted'),
      errors: { 404: flow },
    },
    async (ctx) => {
      await webhooks.delete(ctx.state.caller, ctx.params.id);
      ok(ctx, 'Webhook deleted');
    },
  );
  return router;
}
