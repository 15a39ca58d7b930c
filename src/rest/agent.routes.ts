import Router from '@koa/router';
import { z } from 'zod';
import type { AgentService } from '../services/agents/agent.service';
import { PlaygroundService } from '../services/conversation/playground.service';
import { testChatInput } from '../services/conversation/playground.input';
import { createAgentInput, listAgentsInput, updateAgentInput } from '../services/agents/agent.input';
import { agentShape, serializeAgent } from './agent.serializer';
import { ok } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';

const tag = 'AI agents';
const ownAgent = notFound('agent') + ' Templates cannot be changed: they answer 404 too.';

const testTurnShape = z.object({
  reply: z.string(),
  tool_calls: z.array(z.object({ name: z.string(), arguments: z.unknown() })),
  state: z.string().nullable(),
  end_reason: z.string().nullable(),
  error: z.string().nullable(),
});

export function agentRoutes(api: RestApi, agents: AgentService, playground: PlaygroundService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'listAgentTemplates',
      method: 'get',
      path: '/v1/ai-agent/templates',
      tag,
      summary: 'List the agent templates (interface 4.8)',
      description: 'The built-in agent catalogue, readable by every company; copy one with its fields to create your own agent.',
      data: z.array(agentShape),
    },
    async (ctx) => {
      ok(ctx, (await agents.templates(ctx.state.caller)).map(serializeAgent));
    },
  );
  api.route(
    router,
    {
      id: 'listAgents',
      method: 'get',
      path: '/v1/ai-agent',
      tag,
      summary: 'List the agents of a workspace (interface 4.9)',
      description: 'The agents of one workspace of the company (`default` when `workspace` is left out), newest first.',
      query: listAgentsInput,
      data: z.array(agentShape),
    },
    async (ctx) => {
      ok(ctx, (await agents.list(ctx.state.caller, serviceInput(ctx, 'query'))).map(serializeAgent));
    },
  );
  api.route(
    router,
    {
      id: 'getAgent',
      method: 'get',
      path: '/v1/ai-agent/:id',
      tag,
      summary: "Get one of the company's agents, or a template (interface 4.7)",
      description: 'One agent of the company, or a template of the built-in catalogue.',
      data: agentShape,
      errors: { 404: notFound('agent') },
    },
    async (ctx) => {
      ok(ctx, serializeAgent(await agents.get(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'createAgent',
      method: 'post',
      path: '/v1/ai-agent',
      tag,
      summary: 'Create an agent',
      description: 'Creates an agent; numeric settings are validated against their ranges and named when out of range.',
      body: createAgentInput,
      data: agentShape,
    },
    async (ctx) => {
      ok(ctx, serializeAgent(await agents.create(ctx.state.caller, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'updateAgent',
      method: 'patch',
      path: '/v1/ai-agent/:id',
      tag,
      summary: 'Update an agent',
      description: 'Partial update of an agent of the company; templates cannot be changed.',
      body: updateAgentInput,
      data: agentShape,
      errors: { 404: ownAgent },
    },
    async (ctx) => {
      ok(ctx, serializeAgent(await agents.update(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'deleteAgent',
      method: 'delete',
      path: '/v1/ai-agent/:id',
      tag,
      summary: 'Delete an agent (soft: calls keep it)',
      description: 'Soft-deletes the agent; calls made with it keep showing it.',
      data: z.literal('Agent deleted'),
      errors: { 404: ownAgent },
    },
    async (ctx) => {
      await agents.delete(ctx.state.caller, ctx.params.id);
      ok(ctx, 'Agent deleted');
    },
  );
  api.route(
    router,
    {
      id: 'testAgentChat',
      method: 'post',
      path: '/v1/ai-agent/:id/test-chat',
      tag,
      summary: "The agent's next turn for a conversation, without a call (docs/agents.md, Playground)",
      description:
        "Runs the agent's turn as a call would (its tool rounds, flow tools triggered for real, the same failures); ending, transferring, pressing keys and do_not_call are reported, with nothing to end, dial or list. Rate limited like make-call. 400 when no language model is configured.",
      limit: PlaygroundService.limits.testTurn,
      body: testChatInput,
      data: testTurnShape,
      errors: { 404: notFound('agent') },
    },
    async (ctx) => {
      const turn = await playground.testTurn(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'));
      ok(ctx, { reply: turn.reply, tool_calls: turn.toolCalls, state: turn.state, end_reason: turn.endReason, error: turn.error });
    },
  );
  return router;
}
