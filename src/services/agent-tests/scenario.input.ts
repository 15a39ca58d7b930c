import { z } from 'zod';
import { intBetween, jsonObject, requiredText, uuid } from '../shared/common.input';
import { dynamicVariablesInput } from '../conversation/playground.input';

/**
 * The inputs of agent test scenarios and runs (docs/agents.md, "Test suites"): validated in
 * REST's snake_case (GraphQL's inputs arrive converted to it, so errors name the same
 * fields), and handed to the services typed, in camelCase.
 */

const DIGITS = /^[0-9*#A-D]{1,20}$/;

/**
 * One step of a scripted caller: `say` (with `interrupt_after_ms`: spoken over the agent's
 * last turn that many ms into it), `dtmf` (keys pressed, in order) or `silence_ms`.
 */
const callerTurnInput = z
  .strictObject({
    say: requiredText(2000).optional(),
    interrupt_after_ms: intBetween(0, 600_000).optional(),
    dtmf: z.string().regex(DIGITS, 'Must be 1 to 20 of 0-9, *, #, A-D').optional(),
    silence_ms: intBetween(1, 600_000).optional(),
  })
  .superRefine((t, ctx) => {
    const given = [t.say, t.dtmf, t.silence_ms].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', message: 'Give exactly one of say, dtmf or silence_ms', path: [] });
    else if (t.interrupt_after_ms !== undefined && t.say === undefined) ctx.addIssue({ code: 'custom', message: 'Only with say', path: ['interrupt_after_ms'] });
  });

export type CallerTurn = { say: string; interruptAfterMs?: number } | { dtmf: string } | { silenceMs: number };

const callerTurnOf = (t: z.output<typeof callerTurnInput>): CallerTurn => {
  if (t.dtmf !== undefined) return { dtmf: t.dtmf };
  if (t.silence_ms !== undefined) return { silenceMs: t.silence_ms };
  return { say: t.say!, ...(t.interrupt_after_ms === undefined ? {} : { interruptAfterMs: t.interrupt_after_ms }) };
};

const callerPersonaInput = z.strictObject({
  prompt: requiredText(10_000),
  max_turns: intBetween(1, 50).default(6),
});

export interface CallerPersona {
  /** Who the caller is and what they want, for the model that plays them. */
  prompt: string;
  /** The caller's turns before they hang up. */
  maxTurns: number;
}

const limit = () => intBetween(1, 1_000_000);

/** What a scenario's call must show; `judge` is graded by the model, the others are checked as they are. */
export const criterionInput = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('tool_called'), name: requiredText(64), arguments: jsonObject().optional() }),
    z.strictObject({ type: z.literal('ended_by'), value: z.enum(['agent', 'caller'], { error: 'Must be agent or caller' }) }),
    z.strictObject({ type: z.literal('transcript_contains'), text: requiredText(2000) }),
    z.strictObject({ type: z.literal('transcript_not_contains'), text: requiredText(2000) }),
    z.strictObject({ type: z.literal('outcome'), key: requiredText(64), value: z.union([z.string(), z.number(), z.boolean()], { error: 'Must be a string, number or boolean' }) }),
    z.strictObject({ type: z.literal('max_turns'), value: limit() }),
    z.strictObject({ type: z.literal('max_latency_ms'), value: limit() }),
    z.strictObject({ type: z.literal('judge'), rubric: requiredText(5000) }),
  ],
  { error: 'Must be one of tool_called, ended_by, transcript_contains, transcript_not_contains, outcome, max_turns, max_latency_ms, judge' },
);

export type Criterion = z.output<typeof criterionInput>;
export const CRITERION_TYPES = criterionInput.options.map((o) => o.shape.type.value);

const scenarioFields = {
  name: requiredText(200),
  caller_turns: z.array(callerTurnInput).min(1, 'At least one turn').max(200, 'At most 200 turns'),
  caller_persona: callerPersonaInput,
  dynamic_variables: dynamicVariablesInput(),
  criteria: z.array(criterionInput).max(50, 'At most 50 criteria'),
};

type ScenarioFieldsIn = Partial<{ [K in keyof typeof scenarioFields]: z.output<(typeof scenarioFields)[K]> }>;

/** A scenario's caller is a script or a persona, never both. */
const oneCaller = (s: ScenarioFieldsIn) => !(s.caller_turns && s.caller_persona);
const ONE_CALLER = { message: 'Give caller_turns or caller_persona, not both', path: ['caller_persona'] };

/** A scenario as the services take it: typed, camelCase. */
export interface ScenarioWrite {
  name?: string;
  /** Set: the caller is this script (any persona is dropped). */
  callerTurns?: CallerTurn[];
  /** Set: the caller is this persona (any script is dropped). */
  callerPersona?: CallerPersona;
  dynamicVariables?: { name: string; value: string }[];
  criteria?: Criterion[];
}

const toWrite = (s: ScenarioFieldsIn): ScenarioWrite => ({
  ...(s.name === undefined ? {} : { name: s.name }),
  ...(s.caller_turns ? { callerTurns: s.caller_turns.map(callerTurnOf) } : {}),
  ...(s.caller_persona ? { callerPersona: { prompt: s.caller_persona.prompt, maxTurns: s.caller_persona.max_turns } } : {}),
  ...(s.dynamic_variables ? { dynamicVariables: s.dynamic_variables } : {}),
  ...(s.criteria ? { criteria: s.criteria } : {}),
});

/** `POST /v1/ai-agent/{id}/scenarios`, GraphQL `createAgentScenario`. */
export const createScenarioInput = z
  .strictObject({
    ...scenarioFields,
    caller_turns: scenarioFields.caller_turns.optional(),
    caller_persona: scenarioFields.caller_persona.optional(),
    dynamic_variables: scenarioFields.dynamic_variables.default([]),
    criteria: scenarioFields.criteria.default([]),
  })
  .refine(oneCaller, ONE_CALLER)
  .refine((s) => s.caller_turns || s.caller_persona, { error: 'Give caller_turns or caller_persona', path: ['caller_turns'] })
  .transform((s) => toWrite(s) as ScenarioWrite & Required<Pick<ScenarioWrite, 'name' | 'dynamicVariables' | 'criteria'>>);
export type CreateScenario = z.output<typeof createScenarioInput>;

/** `PATCH /v1/agent-scenarios/{id}`, GraphQL `updateAgentScenario`: the fields given replace the stored ones. */
export const updateScenarioInput = z.strictObject(scenarioFields).partial().refine(oneCaller, ONE_CALLER).transform(toWrite);
export type UpdateScenario = z.output<typeof updateScenarioInput>;

/** An agent version to run: a published one's number; null or left out, the draft. */
const versionInput = () =>
  z
    .int('Must be an integer')
    .min(1, 'Must be at least 1')
    .nullish()
    .transform((v) => v ?? null);

/** `POST /v1/ai-agent/{id}/test-runs`, GraphQL `runAgentTests`: every scenario of the agent unless `scenario_ids` names some. */
export const startTestRunInput = z
  .strictObject({
    version: versionInput(),
    scenario_ids: z.array(uuid()).min(1, 'At least one id').max(200, 'At most 200 ids').optional(),
  })
  .transform((r) => ({ version: r.version, ...(r.scenario_ids ? { scenarioIds: [...new Set(r.scenario_ids)] } : {}) }));
export type StartTestRun = z.output<typeof startTestRunInput>;

/** `POST /v1/calls/{id}/replay`, GraphQL `replayCall`. */
export const replayInput = z.strictObject({ version: versionInput() }).transform((r) => ({ version: r.version }));
export type Replay = z.output<typeof replayInput>;

/** The REST shape of a script step (snake_case, as sent). */
export const callerTurnView = (t: CallerTurn): Record<string, unknown> =>
  'say' in t ? { say: t.say, ...(t.interruptAfterMs === undefined ? {} : { interrupt_after_ms: t.interruptAfterMs }) } : 'dtmf' in t ? { dtmf: t.dtmf } : { silence_ms: t.silenceMs };
