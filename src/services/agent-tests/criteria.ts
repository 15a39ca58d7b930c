import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { describeError } from '../shared/errors';
import type { LanguageModel } from '../conversation/language-model';
import { analyzeTranscript } from '../conversation/post-call-analysis.service';
import { transcriptText } from '../conversation/transcript';
import type { Criterion } from './scenario.input';
import type { RunAgent, SimulatedCall } from './simulated-test-call';

/** One criterion as a run graded it. */
export interface CriterionResult {
  criterion: Criterion;
  passed: boolean;
  /** Why, in a sentence: what the call showed. */
  reason: string;
}

const JUDGE_INSTRUCTIONS =
  'You grade a test call between an AI phone agent and a simulated caller against a rubric. Read the transcript and answer with JSON: ' +
  '"passed" true only when the call meets the rubric, and "reason", one sentence saying why. The rubric:\n\n';
const JUDGE_SCHEMA = {
  type: 'object',
  properties: { passed: { type: 'boolean', description: 'Whether the call meets the rubric' }, reason: { type: 'string', description: 'Why, in one sentence' } },
  required: ['passed', 'reason'],
  additionalProperties: false,
};
const judgement = z.object({ passed: z.boolean(), reason: z.string() });

const quoted = (value: unknown) => JSON.stringify(value);

/** The model's post-call analysis of the test call, asked once, for the `outcome` criteria. */
type Outcomes = { ok: true; outcomes: Record<string, unknown> } | { ok: false; reason: string };

/** Whether `actual` holds every argument `expected` names, with equal values. */
const argumentsMatch = (actual: unknown, expected: Record<string, unknown>): boolean =>
  typeof actual === 'object' && actual !== null && Object.entries(expected).every(([k, v]) => isDeepStrictEqual((actual as Record<string, unknown>)[k], v));

/**
 * Grades a test call against its scenario's criteria (docs/agents.md, "Criteria"): the
 * deterministic ones on the transcript, tool calls and ending as they are; `outcome` on the
 * post-call analysis the agent's outcomes define (asked of the model once per call); `judge`
 * by the model, one request per rubric.
 */
export class CriteriaGrader {
  constructor(private readonly model: LanguageModel) {}

  async grade(agent: RunAgent, call: SimulatedCall, criteria: readonly Criterion[]): Promise<CriterionResult[]> {
    let outcomes: Promise<Outcomes> | null = null;
    const analysis = () => (outcomes ??= this.outcomes(agent, call));
    return Promise.all(criteria.map(async (criterion) => ({ criterion, ...(await this.check(criterion, call, analysis)) })));
  }

  private async check(c: Criterion, call: SimulatedCall, analysis: () => Promise<Outcomes>): Promise<{ passed: boolean; reason: string }> {
    const text = transcriptText(call.turns);
    const agentTurns = call.turns.filter((t) => t.role === 'agent');
    switch (c.type) {
      case 'tool_called': {
        const named = call.toolCalls.filter((t) => t.name === c.name);
        const args = c.arguments;
        const matched = args ? named.filter((t) => argumentsMatch(t.arguments, args)) : named;
        if (matched.length > 0) return { passed: true, reason: `${c.name} was called with ${quoted(matched[0].arguments)}` };
        if (named.length > 0) return { passed: false, reason: `${c.name} was called, but with ${named.map((t) => quoted(t.arguments)).join(', ')}` };
        return { passed: false, reason: `${c.name} was not called${call.toolCalls.length ? ` (called: ${call.toolCalls.map((t) => t.name).join(', ')})` : ''}` };
      }
      case 'ended_by':
        return { passed: call.endedBy === c.value, reason: `The ${call.endedBy} ended the call (${call.endReason})` };
      case 'transcript_contains': {
        const found = text.toLowerCase().includes(c.text.toLowerCase());
        return { passed: found, reason: found ? `The transcript contains ${quoted(c.text)}` : `The transcript does not contain ${quoted(c.text)}` };
      }
      case 'transcript_not_contains': {
        const found = text.toLowerCase().includes(c.text.toLowerCase());
        return { passed: !found, reason: found ? `The transcript contains ${quoted(c.text)}` : `The transcript does not contain ${quoted(c.text)}` };
      }
      case 'max_turns':
        return { passed: agentTurns.length <= c.value, reason: `The agent took ${agentTurns.length} turns (at most ${c.value})` };
      case 'max_latency_ms': {
        const latencies = agentTurns.flatMap((t) => (t.latency_ms === undefined ? [] : [t.latency_ms]));
        const worst = latencies.length ? Math.max(...latencies) : null;
        if (worst === null) return { passed: true, reason: 'No agent turn answered the caller' };
        return { passed: worst <= c.value, reason: `The slowest answer took ${worst} ms (at most ${c.value})` };
      }
      case 'outcome': {
        const result = await analysis();
        if (!result.ok) return { passed: false, reason: `The post-call analysis failed: ${result.reason}` };
        if (!(c.key in result.outcomes)) return { passed: false, reason: `The analysis has no outcome ${quoted(c.key)} (the agent's agent_post_call_outcomes define them)` };
        const actual = result.outcomes[c.key];
        return { passed: isDeepStrictEqual(actual, c.value), reason: `${c.key} is ${quoted(actual)} (expected ${quoted(c.value)})` };
      }
      case 'judge':
        return this.judge(c.rubric, text);
    }
  }

  private async outcomes(agent: RunAgent, call: SimulatedCall): Promise<Outcomes> {
    const result = await analyzeTranscript(this.model, agent, call.turns, { last: true });
    return result.ok ? { ok: true, outcomes: result.answer.outcomes } : result;
  }

  private async judge(rubric: string, transcript: string): Promise<{ passed: boolean; reason: string }> {
    try {
      const answer = await this.model.structured({
        messages: [
          { role: 'system', content: JUDGE_INSTRUCTIONS + rubric },
          { role: 'user', content: transcript || '(nothing was said)' },
        ],
        schemaName: 'scenario_judgement',
        schema: JUDGE_SCHEMA,
      });
      const parsed = judgement.safeParse(answer);
      if (!parsed.success) return { passed: false, reason: 'The judge answered outside its schema' };
      return { passed: parsed.data.passed, reason: parsed.data.reason || (parsed.data.passed ? 'The judge passed it' : 'The judge failed it') };
    } catch (err) {
      return { passed: false, reason: `The judge could not grade it: ${describeError(err)}` };
    }
  }
}
