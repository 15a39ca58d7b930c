import Router from '@koa/router';
import { z } from 'zod';
import type { AgentVersionService } from '../services/agents/agent-version.service';
import { agentVersionParam, listAgentVersionsInput, publishAgentInput } from '../services/agents/agent-version.input';
import { agentVersionShape, serializeAgentVersion } from './agent-version.serializer';
import { ok } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';

const tag = 'AI agents';

/** Publishing an agent's draft and reading its versions (docs/agents.md, "Versions"). */
export function agentVersionRoutes(api: RestApi, versions: AgentVersionService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'publishAgent',
      method: 'post',
      path: '/v1/ai-agent/:id/publish',
      tag,
      summary: "Publish the agent's draft as its next version, or an older version again",
      description:
        'Answers the new immutable version, numbered 1, 2, 3... per agent: a snapshot of the draft (`note` optional), or with `from_version` the content of that older version under a new number (a rollback). Calls then run the latest published version unless their campaign or make-call names another.',
      body: publishAgentInput,
      data: agentVersionShape,
      errors: { 404: notFound('agent') + ' Templates cannot be published: they answer 404 too.' },
    },
    async (ctx) => {
      ok(ctx, serializeAgentVersion(await versions.publish(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'listAgentVersions',
      method: 'get',
      path: '/v1/ai-agent/:id/versions',
      tag,
      summary: "List the agent's published versions, newest first, a page at a time",
      description: 'Versions of one agent of the company, newest first, a page at a time (`limit`, `cursor`). A template has none.',
      query: listAgentVersionsInput,
      data: z.strictObject({ items: z.array(agentVersionShape), next_cursor: z.string().nullable() }),
      errors: { 404: notFound('agent') },
    },
    async (ctx) => {
      const page = await versions.page(ctx.state.caller, ctx.params.id, ctx.query);
      ok(ctx, { items: page.items.map(serializeAgentVersion), next_cursor: page.nextCursor });
    },
  );
  api.route(
    router,
    {
      id: 'getAgentVersion',
      method: 'get',
      path: '/v1/ai-agent/:id/versions/:version',
      tag,
      summary: 'Get one published version of an agent',
      description: 'The version with this number, with every agent field as published.',
      params: agentVersionParam,
      data: agentVersionShape,
      errors: { 404: 'No agent of your company (or template) with this id, or it has no such version.' },
    },
    async (ctx) => {
      ok(ctx, serializeAgentVersion(await versions.get(ctx.state.caller, ctx.params.id, ctx.params.version)));
    },
  );
  return router;
}
