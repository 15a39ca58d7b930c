import { type AgentTestRun, TEST_RUN_STATUSES, type TestRunStatus } from '../../entities/agent-test-run.entity';
import type { StoredTurn } from '../conversation/transcript';
import type { CriterionResult } from './criteria';
import type { ReplayComparison } from './replay';
import type { Criterion } from './scenario.input';
import type { SimulatedCaller, SimulatedCall } from './simulated-test-call';

/** A run's statuses, in the order a run goes through them (the transports' enums). */
export const TEST_RUN_STATUS_VALUES = TEST_RUN_STATUSES;

export type ScenarioStatus = 'pending' | 'passed' | 'failed' | 'error';

/** What a run's scenario was when the run was asked for: later edits do not change a run. */
export interface ScenarioDefinition {
  caller: SimulatedCaller;
  dynamicVariables: { name: string; value: string }[];
  criteria: Criterion[];
  /** Set for a replay: the call replayed and its transcript, which the replay is compared with. */
  replayOf?: { callId: string; turns: StoredTurn[]; callFrom: string; callTo: string; callDirection: string };
}

/** The latencies of a test call's agent answers, in ms. */
export interface RunLatencies {
  /** Each agent answer's `latency_ms`, in order. */
  answersMs: number[];
  medianMs: number | null;
  maxMs: number | null;
}

/** One scenario of a run, as stored in `agent_test_runs.results` and as services return it (without its definition). */
export interface ScenarioRun {
  /** The scenario; null for a replay (or once the scenario is deleted, the name stays). */
  scenarioId: string | null;
  name: string;
  status: ScenarioStatus;
  /** Null while pending. */
  passed: boolean | null;
  criteria: CriterionResult[];
  transcript: StoredTurn[];
  endReason: SimulatedCall['endReason'] | null;
  endedBy: SimulatedCall['endedBy'] | null;
  toolCalls: SimulatedCall['toolCalls'];
  latencies: RunLatencies;
  /** Why the call could not be run or the model failed; null otherwise. */
  error: string | null;
  /** How long the simulated call and its grading took; null while pending. */
  durationMs: number | null;
  /** A replay's comparison with the original call; null for a scenario. */
  replay: ReplayComparison | null;
  definition: ScenarioDefinition;
}

export type ScenarioRunView = Omit<ScenarioRun, 'definition'>;

/** A test run as services return it. */
export interface TestRunView {
  id: string;
  agentId: string;
  /** The published version run; null: the draft. */
  version: number | null;
  /** The call a replay replays; null for a run of scenarios. */
  replayOf: string | null;
  status: TestRunStatus;
  /** Null until the run is over: true when every scenario passed. */
  passed: boolean | null;
  total: number;
  /** Scenarios run so far. */
  done: number;
  scenarios: ScenarioRunView[];
  createdAt: Date;
  finishedAt: Date | null;
}

export const pendingRun = (scenarioId: string | null, name: string, definition: ScenarioDefinition): ScenarioRun => ({
  scenarioId,
  name,
  status: 'pending',
  passed: null,
  criteria: [],
  transcript: [],
  endReason: null,
  endedBy: null,
  toolCalls: [],
  latencies: { answersMs: [], medianMs: null, maxMs: null },
  error: null,
  durationMs: null,
  replay: null,
  definition,
});

export function toTestRunView(run: AgentTestRun): TestRunView {
  const results = run.results as ScenarioRun[];
  const over = run.status === 'passed' || run.status === 'failed';
  return {
    id: run.id,
    agentId: run.aiAgent.id,
    version: run.version,
    replayOf: run.replayOf?.id ?? null,
    status: run.status,
    passed: over ? run.status === 'passed' : null,
    total: results.length,
    done: results.filter((r) => r.status !== 'pending').length,
    scenarios: results.map(({ definition: _definition, ...view }) => view),
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
}
