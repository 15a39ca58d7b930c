import { z } from 'zod';
import { intBetween, jsonObject, requiredText, uuid } from '../shared/common.input';
import { dynamicVariablesInput } from '../conversation/playground.input';
import { camelKeys } from '../shared/naming';

/**
 * The inputs of agent test scenarios and runs (docs/agents.md, "Test suites"): REST's
 * documented bodies in snake_case, and the same fields camelCased as the services validate
 * them (GraphQL's inputs send them so, REST's body is renamed at its edge), so that errors
 * name the field of the surface that sent it.
 */

const DIGITS = /^[0-9*#A-D]{1,20}$/;

/**
 * One step of a scripted caller: `say` (with `interrupt_after_ms`: spoken over the agent's
 * last turn that many ms into it), `dtmf` (keys pressed, in order) or `silence_ms`.
 */
const callerTurnFields = {
  say: requiredText(2000).optional(),
  interrupt_after_ms: intBetween(0, 600_000).optional(),
  dtmf: z.string().regex(DIGITS, 'Must be 1 to 20 of 0-9, *, #, A-D').optional(),
  silence_ms: intBetween(1, 600_000).optional(),
};

const callerTurnWrite = z.strictObject(camelKeys(callerTurnFields)).superRefine((t, ctx) => {
  const given = [t.say, t.dtmf, t.silenceMs].filter((v) => v !== undefined).length;
  if (given !== 1) ctx.addIssue({ code: 'custom', message: 'Give exactly one of say, dtmf or silenceMs', path: [] });
  else if (t.interruptAfterMs !== undefined && t.say === undefined) ctx.addIssue({ code: 'custom', message: 'Only with say', path: ['interruptAfterMs'] });
});

export type CallerTurn = { say: string; interruptAfterMs?: number } | { dtmf: string } | { silenceMs: number };

const callerTurnOf = (t: z.output<typeof callerTurnWrite>): CallerTurn => {
  if (t.dtmf !== undefined) return { dtmf: t.dtmf };
  if (t.silenceMs !== undefined) return { silenceMs: t.silenceMs };
  return { say: t.say!, ...(t.interruptAfterMs === undefined ? {} : { interruptAfterMs: t.interruptAfterMs }) };
};

const callerPersonaFields = {
  prompt: requiredText(10_000),
  max_turns: intBetween(1, 50).default(6),
};

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

/** A caller's script: a list of `turn`. */
const turnList = <T extends z.ZodType>(turn: T) => z.array(turn).min(1, 'At least one turn').max(200, 'At most 200 turns');

/** A scenario's fields, as REST documents them. */
const scenarioFields = {
  name: requiredText(200),
  caller_turns: turnList(z.strictObject(callerTurnFields)),
  caller_persona: z.strictObject(callerPersonaFields),
  dynamic_variables: dynamicVariablesInput(),
  criteria: z.array(criterionInput).max(50, 'At most 50 criteria'),
};

/** `POST /v1/ai-agent/{id}/scenarios`: REST's documented body. */
export const createScenarioInput = z.strictObject({
  ...scenarioFields,
  caller_turns: scenarioFields.caller_turns.optional(),
  caller_persona: scenarioFields.caller_persona.optional(),
  dynamic_variables: scenarioFields.dynamic_variables.default([]),
  criteria: scenarioFields.criteria.default([]),
});

/** `PATCH /v1/agent-scenarios/{id}`: REST's documented body. */
export const updateScenarioInput = z.strictObject(scenarioFields).partial();

/** A scenario's fields as the services validate them: camelCased, the script's steps and the persona's too. */
const scenarioWriteFields = {
  ...camelKeys(scenarioFields),
  callerTurns: turnList(callerTurnWrite),
  callerPersona: z.strictObject(camelKeys(callerPersonaFields)),
};

type ScenarioFieldsIn = Partial<{ [K in keyof typeof scenarioWriteFields]: z.output<(typeof scenarioWriteFields)[K]> }>;

/** A scenario's caller is a script or a persona, never both. */
const oneCaller = (s: ScenarioFieldsIn) => !(s.callerTurns && s.callerPersona);
const ONE_CALLER = { message: 'Give callerTurns or callerPersona, not both', path: ['callerPersona'] };

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
  ...(s.callerTurns ? { callerTurns: s.callerTurns.map(callerTurnOf) } : {}),
  ...(s.callerPersona ? { callerPersona: s.callerPersona } : {}),
  ...(s.dynamicVariables ? { dynamicVariables: s.dynamicVariables } : {}),
  ...(s.criteria ? { criteria: s.criteria } : {}),
});

/** A new scenario, as `ScenarioService.create` validates it (GraphQL `createAgentScenario`, REST's body renamed). */
export const createScenarioWrite = z
  .strictObject({
    ...scenarioWriteFields,
    callerTurns: scenarioWriteFields.callerTurns.optional(),
    callerPersona: scenarioWriteFields.callerPersona.optional(),
    dynamicVariables: scenarioWriteFields.dynamicVariables.default([]),
    criteria: scenarioWriteFields.criteria.default([]),
  })
  .refine(oneCaller, ONE_CALLER)
  .refine((s) => s.callerTurns || s.callerPersona, { error: 'Give callerTurns or callerPersona', path: ['callerTurns'] })
  .transform((s) => toWrite(s) as ScenarioWrite & Required<Pick<ScenarioWrite, 'name' | 'dynamicVariables' | 'criteria'>>);
export type ScenarioCreateInput = z.input<typeof createScenarioWrite>;

/** The fields given replace the stored ones, as `ScenarioService.update` validates them (GraphQL `updateAgentScenario`, REST's body renamed). */
export const updateScenarioWrite = z.strictObject(scenarioWriteFields).partial().refine(oneCaller, ONE_CALLER).transform(toWrite);
export type ScenarioUpdateInput = z.input<typeof updateScenarioWrite>;

/** An agent version to run: a published one's number; null or left out, the draft. */
const versionInput = () =>
  z
    .int('Must be an integer')
    .min(1, 'Must be at least 1')
    .nullish()
    .transform((v) => v ?? null);

/** `POST /v1/ai-agent/{id}/test-runs`: every scenario of the agent unless `scenario_ids` names some. */
const startTestRunFields = {
  version: versionInput(),
  scenario_ids: z.array(uuid()).min(1, 'At least one id').max(200, 'At most 200 ids').optional(),
};
export const startTestRunInput = z.strictObject(startTestRunFields);

/** A run as `TestRunService.start` validates it (GraphQL `runAgentTests`, REST's body renamed). */
export const startTestRunWrite = z.strictObject(camelKeys(startTestRunFields)).transform((r) => ({ version: r.version, ...(r.scenarioIds ? { scenarioIds: [...new Set(r.scenarioIds)] } : {}) }));
export type StartTestRunInput = z.input<typeof startTestRunWrite>;

/** `POST /v1/calls/{id}/replay`, GraphQL `replayCall`: the same names on both surfaces. */
export const replayInput = z.strictObject({ version: versionInput() });
export type ReplayInput = z.input<typeof replayInput>;

/** The REST shape of a script step (snake_case, as sent). */
export const callerTurnView = (t: CallerTurn): Record<string, unknown> =>
  'say' in t ? { say: t.say, ...(t.interruptAfterMs === undefined ? {} : { interrupt_after_ms: t.interruptAfterMs }) } : 'dtmf' in t ? { dtmf: t.dtmf } : { silence_ms: t.silenceMs };
