import Router from '@koa/router';
import { z } from 'zod';
import { createScenarioInput, replayInput, startTestRunInput, updateScenarioInput } from '../services/agent-tests/scenario.input';
import type { ScenarioService } from '../services/agent-tests/scenario.service';
import type { TestRunService } from '../services/agent-tests/test-run.service';
import { scenarioShape, serializeScenario, serializeTestRun, testRunShape } from './agent-test.serializer';
import { ok } from './envelope';
import type { RestState } from './middleware';
import { notFound, type RestApi } from './openapi';
import { serviceInput } from './rest-names';

const tag = 'AI agents';
const NO_MODEL = '400 when no language model is configured, or the agent has no scenarios.';

/** Agent test scenarios, test runs and call replays (docs/agents.md, "Test suites", "Replay a real call"). */
export function agentTestRoutes(api: RestApi, scenarios: ScenarioService, runs: TestRunService): Router<RestState> {
  const router = new Router<RestState>();
  api.route(
    router,
    {
      id: 'createAgentScenario',
      method: 'post',
      path: '/v1/ai-agent/:id/scenarios',
      tag,
      summary: 'Add a test scenario to an agent',
      description: 'A simulated caller (`caller_turns`, a script, or `caller_persona`, a prompt a model plays) and the criteria its call must meet.',
      body: createScenarioInput,
      data: scenarioShape,
      errors: { 404: notFound('agent') },
    },
    async (ctx) => {
      ok(ctx, serializeScenario(await scenarios.create(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'listAgentScenarios',
      method: 'get',
      path: '/v1/ai-agent/:id/scenarios',
      tag,
      summary: "An agent's test scenarios, oldest first",
      description: "Every scenario of one of the company's agents, in the order a run takes them.",
      data: z.array(scenarioShape),
      errors: { 404: notFound('agent') },
    },
    async (ctx) => {
      ok(ctx, (await scenarios.list(ctx.state.caller, ctx.params.id)).map(serializeScenario));
    },
  );
  api.route(
    router,
    {
      id: 'getAgentScenario',
      method: 'get',
      path: '/v1/agent-scenarios/:id',
      tag,
      summary: 'One test scenario',
      description: "A scenario of one of the company's agents.",
      data: scenarioShape,
      errors: { 404: notFound('scenario') },
    },
    async (ctx) => {
      ok(ctx, serializeScenario(await scenarios.get(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'updateAgentScenario',
      method: 'patch',
      path: '/v1/agent-scenarios/:id',
      tag,
      summary: 'Change a test scenario',
      description: 'The fields given replace the stored ones; `caller_turns` replaces a persona and `caller_persona` a script.',
      body: updateScenarioInput,
      data: scenarioShape,
      errors: { 404: notFound('scenario') },
    },
    async (ctx) => {
      ok(ctx, serializeScenario(await scenarios.update(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'deleteAgentScenario',
      method: 'delete',
      path: '/v1/agent-scenarios/:id',
      tag,
      summary: 'Delete a test scenario (runs keep their results)',
      description: 'Deletes the scenario; the runs that ran it keep its name and results.',
      data: z.literal('Scenario deleted'),
      errors: { 404: notFound('scenario') },
    },
    async (ctx) => {
      await scenarios.delete(ctx.state.caller, ctx.params.id);
      ok(ctx, 'Scenario deleted');
    },
  );
  api.route(
    router,
    {
      id: 'startAgentTestRun',
      method: 'post',
      path: '/v1/ai-agent/:id/test-runs',
      tag,
      summary: "Run an agent's scenarios as simulated calls",
      description: `Answers the queued run at once; follow it with GET /v1/agent-test-runs/{id} or the GraphQL subscription agentTestRunUpdated. Not billed, not a call, no carrier. ${NO_MODEL}`,
      limit: 'make-call',
      body: startTestRunInput,
      data: testRunShape,
      errors: { 404: notFound('agent') },
    },
    async (ctx) => {
      ok(ctx, serializeTestRun(await runs.start(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  api.route(
    router,
    {
      id: 'listAgentTestRuns',
      method: 'get',
      path: '/v1/ai-agent/:id/test-runs',
      tag,
      summary: "An agent's test runs and replays, newest first (the latest 50)",
      description: "The latest runs of one of the company's agents, each as GET /v1/agent-test-runs/{id} answers it.",
      data: z.array(testRunShape),
      errors: { 404: notFound('agent') },
    },
    async (ctx) => {
      ok(ctx, (await runs.list(ctx.state.caller, ctx.params.id)).map(serializeTestRun));
    },
  );
  api.route(
    router,
    {
      id: 'getAgentTestRun',
      method: 'get',
      path: '/v1/agent-test-runs/:id',
      tag,
      summary: 'A test run: its status, and per scenario the criteria, transcript and latencies',
      description: 'The run as it stands: `status` queued, running, then passed or failed; each scenario `pending` until its simulated call ended and was graded.',
      data: testRunShape,
      errors: { 404: notFound('test run') },
    },
    async (ctx) => {
      ok(ctx, serializeTestRun(await runs.get(ctx.state.caller, ctx.params.id)));
    },
  );
  api.route(
    router,
    {
      id: 'replayCall',
      method: 'post',
      path: '/v1/calls/:id/replay',
      tag: 'Calls',
      summary: "Replay a finished call's caller against an agent version",
      description:
        "The stored caller side of the call (utterances, keys, interruptions, timings) is said again to the agent's `version` (the draft when left out) in a simulated call; answers a test run whose one result compares both transcripts turn by turn. 400 when the call is not finished, has no caller turns, or no language model is configured.",
      limit: 'make-call',
      body: replayInput,
      data: testRunShape,
      errors: { 404: notFound('call') },
    },
    async (ctx) => {
      ok(ctx, serializeTestRun(await runs.replay(ctx.state.caller, ctx.params.id, serviceInput(ctx, 'body'))));
    },
  );
  return router;
}
