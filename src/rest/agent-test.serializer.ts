import { z } from 'zod';
import type { CriterionResult } from '../services/agent-tests/criteria';
import { callerTurnView, criterionInput } from '../services/agent-tests/scenario.input';
import type { ScenarioView } from '../services/agent-tests/scenario.service';
import { type ScenarioRunView, TEST_RUN_STATUS_VALUES, type TestRunView } from '../services/agent-tests/test-run.contract';

/** REST shapes of agent test scenarios and runs (docs/agents.md, "Test suites"), snake_case. */

const callerTurnShape = z.object({ say: z.string().optional(), interrupt_after_ms: z.int().optional(), dtmf: z.string().optional(), silence_ms: z.int().optional() });
const variableShape = z.object({ name: z.string(), value: z.string() });

export const scenarioShape = z.object({
  id: z.string(),
  ai_agent_id: z.string(),
  name: z.string(),
  caller_turns: z.array(callerTurnShape).nullable(),
  caller_persona: z.object({ prompt: z.string(), max_turns: z.int() }).nullable(),
  dynamic_variables: z.array(variableShape),
  criteria: z.array(criterionInput),
  created_at: z.string(),
  updated_at: z.string(),
});

export const serializeScenario = (s: ScenarioView): z.output<typeof scenarioShape> => ({
  id: s.id,
  ai_agent_id: s.agentId,
  name: s.name,
  caller_turns: s.callerTurns?.map(callerTurnView) ?? null,
  caller_persona: s.callerPersona ? { prompt: s.callerPersona.prompt, max_turns: s.callerPersona.maxTurns } : null,
  dynamic_variables: s.dynamicVariables,
  criteria: s.criteria,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

const turnShape = z.object({ role: z.enum(['agent', 'user']), text: z.string(), at: z.string(), latency_ms: z.int().optional(), dtmf: z.string().optional(), interrupted: z.literal(true).optional() });
const sideShape = z.object({ role: z.enum(['agent', 'user']), text: z.string() }).nullable();

const scenarioRunShape = z.object({
  scenario_id: z.string().nullable(),
  name: z.string(),
  status: z.enum(['pending', 'passed', 'failed', 'error']),
  passed: z.boolean().nullable(),
  criteria: z.array(z.object({ criterion: criterionInput, passed: z.boolean(), reason: z.string() })),
  transcript: z.array(turnShape),
  end_reason: z.string().nullable(),
  ended_by: z.enum(['agent', 'caller']).nullable(),
  tool_calls: z.array(z.object({ name: z.string(), arguments: z.unknown() })),
  latencies: z.object({ answers_ms: z.array(z.int()), median_ms: z.int().nullable(), max_ms: z.int().nullable() }),
  error: z.string().nullable(),
  duration_ms: z.int().nullable(),
  replay: z
    .object({
      call_id: z.string(),
      turns: z.array(z.object({ original: sideShape, replayed: sideShape, same: z.boolean() })),
      diverged_at: z.int().nullable(),
    })
    .nullable(),
});

export const testRunShape = z.object({
  id: z.string(),
  ai_agent_id: z.string(),
  version: z.int().nullable(),
  replay_of: z.string().nullable(),
  status: z.enum(TEST_RUN_STATUS_VALUES),
  passed: z.boolean().nullable(),
  total: z.int(),
  done: z.int(),
  scenarios: z.array(scenarioRunShape),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

const criterionResult = (c: CriterionResult) => ({ criterion: c.criterion, passed: c.passed, reason: c.reason });

const serializeScenarioRun = (r: ScenarioRunView): z.output<typeof scenarioRunShape> => ({
  scenario_id: r.scenarioId,
  name: r.name,
  status: r.status,
  passed: r.passed,
  criteria: r.criteria.map(criterionResult),
  transcript: r.transcript.map(({ role, text, at, latency_ms, dtmf, interrupted }) => ({
    role,
    text,
    at,
    ...(latency_ms === undefined ? {} : { latency_ms }),
    ...(dtmf === undefined ? {} : { dtmf }),
    ...(interrupted ? { interrupted } : {}),
  })),
  end_reason: r.endReason,
  ended_by: r.endedBy,
  tool_calls: r.toolCalls,
  latencies: { answers_ms: r.latencies.answersMs, median_ms: r.latencies.medianMs, max_ms: r.latencies.maxMs },
  error: r.error,
  duration_ms: r.durationMs,
  replay: r.replay ? { call_id: r.replay.callId, turns: r.replay.turns, diverged_at: r.replay.divergedAt } : null,
});

export const serializeTestRun = (run: TestRunView): z.output<typeof testRunShape> => ({
  id: run.id,
  ai_agent_id: run.agentId,
  version: run.version,
  replay_of: run.replayOf,
  status: run.status,
  passed: run.passed,
  total: run.total,
  done: run.done,
  scenarios: run.scenarios.map(serializeScenarioRun),
  created_at: run.createdAt.toISOString(),
  finished_at: run.finishedAt?.toISOString() ?? null,
});
