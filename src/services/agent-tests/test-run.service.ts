import type { MikroORM } from '@mikro-orm/postgresql';
import { AgentScenario, AgentTestRun, AiAgent, Call } from '../../entities';
import { TERMINAL_STATUSES } from '../../entities/call.entity';
import type { Logger } from '../../logger';
import type { AgentService } from '../agents/agent.service';
import { CompanyFlowInvoker } from '../conversation/flow-tools';
import type { LanguageModel } from '../conversation/language-model';
import { NO_MODEL } from '../conversation/playground.service';
import { storedTurnsOf } from '../conversation/resumption';
import type { FlowRunner } from '../flows/flow-runner';
import type { EventPublisher } from '../platform/events';
import type { JobQueue } from '../platform/jobs/job-queue';
import { jobSql } from '../platform/jobs/job-sql';
import type { Clock } from '../shared/clock';
import { describeError, NotFoundError, PreconditionError, ValidationError } from '../shared/errors';
import { findOwned, parseId } from '../shared/records';
import type { Caller } from '../shared/scope';
import { parseInput } from '../shared/validation';
import { CriteriaGrader } from './criteria';
import { compareReplay, replayScript } from './replay';
import { settingsForRun } from './run-agent';
import { replayInput, type ReplayInput, startTestRunWrite, type StartTestRunInput } from './scenario.input';
import { MAX_SCENARIOS_PER_AGENT, toScenarioView } from './scenario.service';
import { SimulatedTestCall, type RunAgent } from './simulated-test-call';
import { pendingRun, type RunLatencies, type ScenarioDefinition, type ScenarioRun, type TestRunView, toTestRunView } from './test-run.contract';
import { writeScenarioRun } from './test-run.store';

export const AGENT_TEST_RUN_JOB = 'agent.test-run';

/** How long one scenario's simulated call may rightly take before its run's job is presumed dead (a slow model, a long persona). */
const SCENARIO_WORK_S = 120;

export interface TestRunDeps {
  orm: MikroORM;
  agents: AgentService;
  /** The language model; null: runs are refused (there is nothing to run the agent with). */
  model: LanguageModel | null;
  flows: FlowRunner;
  jobs: JobQueue;
  events: EventPublisher;
  clock: Clock;
  logger: Logger;
  /** Simulated calls of one run at once (AGENT_TEST_CONCURRENCY). */
  concurrency: number;
}

const median = (values: number[]): number | null => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return Math.round(sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2);
};

/** Runs `work` on each item, at most `limit` at once. */
async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Agent test runs (docs/agents.md, "Test suites", "Replay a real call"): asked for, a run is
 * stored with a snapshot of each scenario and of the agent's settings, and a durable job runs
 * its scenarios as simulated calls, a few at once, each result written and published as its
 * call ends. A job run again (a replica died) runs only the scenarios still pending. No call
 * record is made: runs are not billed, not listed or counted with calls, and dial no one.
 */
export class TestRunService {
  private readonly calls: SimulatedTestCall | null;
  private readonly grader: CriteriaGrader | null;

  constructor(private readonly deps: TestRunDeps) {
    this.calls = deps.model ? new SimulatedTestCall(deps.model, deps.logger) : null;
    this.grader = deps.model ? new CriteriaGrader(deps.model) : null;
  }

  /** Runs the agent's scenarios (`scenarioIds`: only those) against `version` (null: the draft); answers the queued run. No input: every scenario, the draft. */
  async start(caller: Caller, agentId: unknown, given: StartTestRunInput | null): Promise<TestRunView> {
    const input = parseInput(startTestRunWrite, given ?? {});
    const agent = await this.deps.agents.getOwn(caller, parseId(agentId));
    const { scope, em } = caller;
    const settings = await settingsForRun(caller, agent, input.version);
    const ids = input.scenarioIds;
    const scenarios = await em.find(
      AgentScenario,
      { company: scope.companyId, aiAgent: agent.id, ...(ids ? { id: { $in: ids } } : {}) },
      { orderBy: { createdAt: 'asc', id: 'asc' }, limit: MAX_SCENARIOS_PER_AGENT },
    );
    if (ids) {
      const found = new Set(scenarios.map((s) => s.id));
      const missing = ids.flatMap((id, i) => (found.has(id) ? [] : [{ field: `scenarioIds[${i}]`, message: 'Must name a scenario of this agent' }]));
      if (missing.length) throw new ValidationError(missing);
    }
    if (scenarios.length === 0) throw new PreconditionError('The agent has no scenarios to run: create one first (POST /v1/ai-agent/{id}/scenarios)');
    const results = scenarios.map((s) => {
      const v = toScenarioView(s);
      const definition: ScenarioDefinition = { caller: v.callerTurns ? { turns: v.callerTurns } : { persona: v.callerPersona! }, dynamicVariables: v.dynamicVariables, criteria: v.criteria };
      return pendingRun(s.id, s.name, definition);
    });
    return this.queue(caller, { aiAgent: agent, version: input.version, agent: settings, results });
  }

  /**
   * Replays the caller's side of a finished call against `version` (null: the draft) in a
   * simulated call; answers the queued run, whose one scenario compares both transcripts. No input: the draft.
   */
  async replay(caller: Caller, callId: unknown, given: ReplayInput | null): Promise<TestRunView> {
    const input = parseInput(replayInput, given ?? {});
    const { scope, em } = caller;
    const call = await findOwned(em, Call, 'Call', { id: parseId(callId), company: scope.companyId, deletedAt: null });
    if (!TERMINAL_STATUSES.includes(call.callStatus)) throw new PreconditionError('Only a finished call can be replayed');
    const turns = storedTurnsOf(call.transcriptObject);
    const script = replayScript(turns);
    if (script.length === 0) throw new PreconditionError('The call has no caller turns to replay');
    const agent = await em.findOne(AiAgent, { id: call.aiAgent.id, company: scope.companyId });
    if (!agent) throw new NotFoundError('Agent');
    const settings = await settingsForRun(caller, agent, input.version);
    const definition: ScenarioDefinition = {
      caller: { turns: script },
      dynamicVariables: call.agentDynamicVariables,
      criteria: [],
      replayOf: { callId: call.id, turns, callFrom: call.callFrom, callTo: call.callTo, callDirection: call.callDirection },
    };
    return this.queue(caller, { aiAgent: agent, version: input.version, agent: settings, replayOf: call, results: [pendingRun(null, `Replay of call ${call.id}`, definition)] });
  }

  async get({ scope, em }: Caller, id: unknown): Promise<TestRunView> {
    return toTestRunView(await findOwned(em, AgentTestRun, 'Test run', { id: parseId(id), company: scope.companyId }));
  }

  /** The agent's runs, newest first (at most 50). */
  async list(caller: Caller, agentId: unknown): Promise<TestRunView[]> {
    const agent = await this.deps.agents.getOwn(caller, parseId(agentId));
    const runs = await caller.em.find(AgentTestRun, { company: caller.scope.companyId, aiAgent: agent.id }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 50 });
    return runs.map(toTestRunView);
  }

  /** Job handler: runs the scenarios of a run still pending, then settles the run. Idempotent: a finished run is left alone. */
  async run({ scope, em }: Caller, runId: string): Promise<void> {
    const run = await em.findOne(AgentTestRun, { id: runId, company: scope.companyId });
    if (!run || run.finishedAt || !this.calls) return;
    const ref = { id: run.id, companyId: scope.companyId };
    if (run.status === 'queued') {
      await em.nativeUpdate(AgentTestRun, { id: run.id, company: scope.companyId }, { status: 'running' });
      await this.announce(run);
    }
    const results = run.results as ScenarioRun[];
    const pending = results.flatMap((r, index) => (r.status === 'pending' ? [index] : []));
    await eachAtMost(pending, this.deps.concurrency, async (index) => {
      const result = await this.runScenario(scope.companyId, run.agent as RunAgent, results[index]);
      results[index] = result;
      await writeScenarioRun(this.deps.orm.em.fork(), ref, index, result);
      await this.announce(run);
    });
    const status = results.every((r) => r.passed) ? 'passed' : 'failed';
    await em.nativeUpdate(AgentTestRun, { id: run.id, company: scope.companyId }, { status, finishedAt: this.deps.clock.now() });
    await this.announce(run);
  }

  private async queue(caller: Caller, fields: Pick<AgentTestRun, 'version' | 'agent' | 'results'> & { aiAgent: AiAgent; replayOf?: Call }): Promise<TestRunView> {
    if (!this.calls) throw new PreconditionError(NO_MODEL);
    const { scope, em } = caller;
    const { aiAgent, version, agent, results, replayOf } = fields;
    const run = await em.transactional(async (tx) => {
      const created = tx.create(AgentTestRun, { company: scope.companyId, aiAgent, version, agent, results, replayOf: replayOf ?? null });
      await tx.flush();
      await this.deps.jobs.prepare(AGENT_TEST_RUN_JOB);
      const workSeconds = SCENARIO_WORK_S * Math.ceil(results.length / this.deps.concurrency);
      await this.deps.jobs.send(AGENT_TEST_RUN_JOB, { companyId: scope.companyId, runId: created.id }, { db: jobSql(tx), workSeconds });
      return created;
    });
    this.deps.jobs.wake(AGENT_TEST_RUN_JOB);
    await this.announce(run);
    return toTestRunView(run);
  }

  /** One scenario's simulated call, graded; a failure to run it is the scenario's error, not the run's. */
  private async runScenario(companyId: string, agent: RunAgent, pending: ScenarioRun): Promise<ScenarioRun> {
    const { definition } = pending;
    const facts = definition.replayOf ?? { callFrom: '', callTo: '', callDirection: 'outgoing' };
    const flows = new CompanyFlowInvoker(this.deps.orm, this.deps.flows, companyId, { call_id: '', contact_id: null, call_from: facts.callFrom, call_to: facts.callTo });
    const startedAt = Date.now();
    const durationMs = () => Date.now() - startedAt;
    try {
      const call = await this.calls!.run(agent, definition.caller, { ...facts, agentDynamicVariables: definition.dynamicVariables }, flows);
      const criteria = await this.grader!.grade(agent, call, definition.criteria);
      const answersMs = call.turns.flatMap((t) => (t.role === 'agent' && t.latency_ms !== undefined ? [t.latency_ms] : []));
      const latencies: RunLatencies = { answersMs, medianMs: median(answersMs), maxMs: answersMs.length ? Math.max(...answersMs) : null };
      const passed = call.error === null && criteria.every((c) => c.passed);
      return {
        ...pending,
        status: call.error !== null ? 'error' : passed ? 'passed' : 'failed',
        passed,
        criteria,
        transcript: call.turns,
        endReason: call.endReason,
        endedBy: call.endedBy,
        toolCalls: call.toolCalls,
        latencies,
        error: call.error,
        durationMs: durationMs(),
        replay: definition.replayOf ? compareReplay(definition.replayOf.callId, definition.replayOf.turns, call.turns) : null,
      };
    } catch (err) {
      this.deps.logger.warn({ err, companyId }, 'agent test scenario failed to run');
      return { ...pending, status: 'error', passed: false, error: describeError(err), durationMs: durationMs() };
    }
  }

  private async announce(run: AgentTestRun): Promise<void> {
    await this.deps.events.publish('agent.test-run.updated', { companyId: run.company.id, agentId: run.aiAgent.id, runId: run.id });
  }
}
