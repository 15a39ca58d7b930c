import type { FieldError } from '../errors';
import type { CreateAgentScenarioInput, ScenarioCriterionInput, ScenarioRowFragment } from '../gql/graphql';

/**
 * A scenario as its form edits it (every value as typed), and the conversions to and from the
 * API's shapes (docs/agents.md, "Scenarios"). Values the API checks (lengths, keys, ranges) go
 * as typed so that its field errors show beside them; only what cannot be sent at all (a
 * number that is not one, arguments that are not JSON) is refused here, named as the API
 * would name it.
 */

export const STEP_KINDS = { say: 'Says', dtmf: 'Presses keys', silence: 'Keeps silent (ms)' } as const;
export type StepKind = keyof typeof STEP_KINDS;

export interface StepDraft {
  kind: StepKind;
  value: string;
  /** With `say`: ms into the agent's last turn the caller speaks over it; empty: after it. */
  interruptAfterMs: string;
}

/** Each criterion type, what it checks, and the fields it takes (docs/agents.md, "Criteria"). */
export const CRITERIA = {
  tool_called: { text: 'Tool called', fields: ['name', 'arguments'] },
  ended_by: { text: 'Ended by', fields: ['value'] },
  transcript_contains: { text: 'Transcript contains', fields: ['text'] },
  transcript_not_contains: { text: 'Transcript does not contain', fields: ['text'] },
  outcome: { text: 'Post-call outcome equals', fields: ['key', 'value'] },
  max_turns: { text: 'At most this many agent turns', fields: ['value'] },
  max_latency_ms: { text: 'Slowest answer at most (ms)', fields: ['value'] },
  judge: { text: "The judge's rubric", fields: ['rubric'] },
} as const;
export type CriterionType = keyof typeof CRITERIA;

export interface CriterionDraft {
  type: CriterionType;
  name: string;
  arguments: string;
  value: string;
  text: string;
  key: string;
  rubric: string;
}

export interface ScenarioDraft {
  name: string;
  caller: 'script' | 'persona';
  steps: StepDraft[];
  persona: string;
  maxTurns: string;
  variables: { name: string; value: string }[];
  criteria: CriterionDraft[];
}

export const newStep = (): StepDraft => ({ kind: 'say', value: '', interruptAfterMs: '' });
export const newCriterion = (type: CriterionType = 'transcript_contains'): CriterionDraft => ({
  type,
  name: '',
  arguments: '',
  value: type === 'ended_by' ? 'agent' : '',
  text: '',
  key: '',
  rubric: '',
});
export const emptyDraft = (): ScenarioDraft => ({ name: '', caller: 'script', steps: [newStep()], persona: '', maxTurns: '6', variables: [], criteria: [newCriterion()] });

const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The form's draft of a stored scenario. */
export function draftOf(s: ScenarioRowFragment): ScenarioDraft {
  return {
    name: s.name,
    caller: s.callerPersona ? 'persona' : 'script',
    steps: (s.callerTurns ?? []).map((t) =>
      t.dtmf != null
        ? { kind: 'dtmf', value: t.dtmf, interruptAfterMs: '' }
        : t.silenceMs != null
          ? { kind: 'silence', value: String(t.silenceMs), interruptAfterMs: '' }
          : { kind: 'say', value: t.say ?? '', interruptAfterMs: text(t.interruptAfterMs) },
    ),
    persona: s.callerPersona?.prompt ?? '',
    maxTurns: String(s.callerPersona?.maxTurns ?? 6),
    variables: s.dynamicVariables.map(({ name, value }) => ({ name, value })),
    criteria: s.criteria.map((c) => ({
      ...newCriterion(c.type as CriterionType),
      name: text(c.name),
      arguments: c.arguments ? JSON.stringify(c.arguments) : '',
      value: text(c.value),
      text: text(c.text),
      key: text(c.key),
      rubric: text(c.rubric),
    })),
  };
}

/** A whole number as typed, or an error for `field` when it is not one; empty is undefined. */
function integer(value: string, field: string, errors: FieldError[]): number | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) errors.push({ field, message: 'Must be a whole number' });
  return Number.isInteger(n) ? n : undefined;
}

/** An outcome's expected value: true, false or a number as JSON reads them, else the text. */
function outcomeValue(value: string): string | number | boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' || typeof parsed === 'number' || typeof parsed === 'boolean' ? parsed : value;
  } catch {
    return value;
  }
}

function criterionInput(c: CriterionDraft, field: string, errors: FieldError[]): ScenarioCriterionInput {
  switch (c.type) {
    case 'tool_called': {
      if (c.arguments.trim() === '') return { type: c.type, name: c.name };
      try {
        return { type: c.type, name: c.name, arguments: JSON.parse(c.arguments) as Record<string, unknown> };
      } catch {
        errors.push({ field: `${field}.arguments`, message: 'Must be a JSON object, e.g. {"day": "Friday"}' });
        return { type: c.type, name: c.name };
      }
    }
    case 'ended_by':
      return { type: c.type, value: c.value };
    case 'transcript_contains':
    case 'transcript_not_contains':
      return { type: c.type, text: c.text };
    case 'outcome':
      return { type: c.type, key: c.key, value: outcomeValue(c.value) };
    case 'max_turns':
    case 'max_latency_ms':
      return { type: c.type, value: integer(c.value, `${field}.value`, errors) ?? c.value };
    case 'judge':
      return { type: c.type, rubric: c.rubric };
  }
}

/** The draft as `createAgentScenario` and `updateAgentScenario` take it, or the errors found before sending. */
export function inputOf(d: ScenarioDraft): { input: CreateAgentScenarioInput; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const caller =
    d.caller === 'persona'
      ? { callerPersona: { prompt: d.persona, maxTurns: integer(d.maxTurns, 'callerPersona.maxTurns', errors) } }
      : {
          callerTurns: d.steps.map((s, i) => {
            if (s.kind === 'dtmf') return { dtmf: s.value };
            if (s.kind === 'silence') return { silenceMs: integer(s.value, `callerTurns[${i}].silenceMs`, errors) ?? 0 };
            return { say: s.value, interruptAfterMs: integer(s.interruptAfterMs, `callerTurns[${i}].interruptAfterMs`, errors) };
          }),
        };
  const input = {
    name: d.name,
    ...caller,
    dynamicVariables: d.variables,
    criteria: d.criteria.map((c, i) => criterionInput(c, `criteria[${i}]`, errors)),
  };
  return { input, errors };
}

/** The errors of `field` and of what it holds (`criteria[0]` holds `criteria[0].value`). */
export const errorsOf = (errors: FieldError[], field: string) => errors.filter((e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`));

/** What a criterion checks, in a few words (its type's). */
export const criterionLabel = (c: Record<string, unknown>): string => {
  const type = String(c.type);
  return type in CRITERIA ? CRITERIA[type as CriterionType].text : type;
};

/** A criterion in a line, as a run's results name it. */
export function criterionText(c: Record<string, unknown>): string {
  const label = criterionLabel(c);
  const details = Object.entries(c)
    .filter(([k]) => k !== 'type')
    .map(([k, v]) => (k === 'rubric' || k === 'text' ? `"${String(v)}"` : `${k} ${text(v)}`));
  return details.length > 0 ? `${label}: ${details.join(', ')}` : label;
}
