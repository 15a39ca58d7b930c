import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { Problem } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { graphql } from '../gql';
import type { ScenarioRowFragment } from '../gql/graphql';
import {
  CRITERIA,
  type CriterionDraft,
  type CriterionType,
  draftOf,
  emptyDraft,
  errorsOf,
  inputOf,
  newCriterion,
  newStep,
  type ScenarioDraft,
  STEP_KINDS,
  type StepDraft,
  type StepKind,
} from './scenario-draft';

const CREATE = graphql(`
  mutation CreateScenario($agentId: ID!, $input: CreateAgentScenarioInput!) {
    createAgentScenario(agentId: $agentId, input: $input) {
      ...ScenarioRow
    }
  }
`);

const UPDATE = graphql(`
  mutation UpdateScenario($id: ID!, $input: UpdateAgentScenarioInput!) {
    updateAgentScenario(id: $id, input: $input) {
      ...ScenarioRow
    }
  }
`);

/** The messages of `field` and what it holds, beside it (announced). */
function Errors({ errors, field, exact = false }: { errors: FieldError[]; field: string; exact?: boolean }) {
  const mine = exact ? errors.filter((e) => e.field === field) : errorsOf(errors, field);
  if (mine.length === 0) return null;
  return (
    <p className="error field-error" role="alert" data-field={field}>
      {mine.map((e) => e.message).join(' ')}
    </p>
  );
}

/** Replaces item `i` of a list with `change` applied. */
const edit = <T,>(list: T[], i: number, change: Partial<T>) => list.map((x, j) => (j === i ? { ...x, ...change } : x));
const without = <T,>(list: T[], i: number) => list.filter((_, j) => j !== i);

function Steps({ steps, errors, onChange }: { steps: StepDraft[]; errors: FieldError[]; onChange(steps: StepDraft[]): void }) {
  return (
    <ol className="plain scenario-items">
      {steps.map((s, i) => {
        const n = i + 1;
        return (
          <li key={i} className="scenario-item">
            <div className="row">
              <label>
                Step {n}
                <select value={s.kind} onChange={(e) => onChange(edit(steps, i, { kind: e.target.value as StepKind }))}>
                  {Object.entries(STEP_KINDS).map(([kind, text]) => (
                    <option key={kind} value={kind}>
                      {text}
                    </option>
                  ))}
                </select>
              </label>
              <label className="grow">
                {s.kind === 'say' ? `Step ${n}: what the caller says` : s.kind === 'dtmf' ? `Step ${n}: keys (0-9, *, #, A-D)` : `Step ${n}: silence in ms`}
                <input value={s.value} inputMode={s.kind === 'silence' ? 'numeric' : undefined} onChange={(e) => onChange(edit(steps, i, { value: e.target.value }))} />
              </label>
              {s.kind === 'say' && (
                <label>
                  Step {n}: speaks over the agent after (ms, optional)
                  <input value={s.interruptAfterMs} inputMode="numeric" onChange={(e) => onChange(edit(steps, i, { interruptAfterMs: e.target.value }))} />
                </label>
              )}
              <button type="button" className="link" onClick={() => onChange(without(steps, i))} disabled={steps.length === 1}>
                Remove step {n}
              </button>
            </div>
            <Errors errors={errors} field={`callerTurns[${i}]`} />
          </li>
        );
      })}
      <li>
        <button type="button" className="link" onClick={() => onChange([...steps, newStep()])}>
          Add a step
        </button>
      </li>
    </ol>
  );
}

/** The inputs a criterion of this type takes. */
function CriterionFields({ c, n, onChange }: { c: CriterionDraft; n: number; onChange(change: Partial<CriterionDraft>): void }) {
  const input = (key: 'name' | 'key' | 'text' | 'value', label: string, numeric = false) => (
    <label className="grow">
      Criterion {n}: {label} <input value={c[key]} inputMode={numeric ? 'numeric' : undefined} onChange={(e) => onChange({ [key]: e.target.value })} />
    </label>
  );
  switch (c.type) {
    case 'tool_called':
      return (
        <>
          {input('name', 'tool')}
          <label className="grow">
            Criterion {n}: with arguments (JSON, optional) <input value={c.arguments} placeholder='{"day": "Friday"}' onChange={(e) => onChange({ arguments: e.target.value })} />
          </label>
        </>
      );
    case 'ended_by':
      return (
        <label>
          Criterion {n}: who ends the call
          <select value={c.value} onChange={(e) => onChange({ value: e.target.value })}>
            <option value="agent">The agent</option>
            <option value="caller">The caller</option>
          </select>
        </label>
      );
    case 'transcript_contains':
    case 'transcript_not_contains':
      return input('text', 'text (any case)');
    case 'outcome':
      return (
        <>
          {input('key', 'outcome')}
          {input('value', 'value (text, a number, true or false)')}
        </>
      );
    case 'max_turns':
    case 'max_latency_ms':
      return input('value', 'limit', true);
    case 'judge':
      return (
        <label className="grow">
          Criterion {n}: rubric the model grades the call by <textarea rows={2} value={c.rubric} onChange={(e) => onChange({ rubric: e.target.value })} />
        </label>
      );
  }
}

function Criteria({ criteria, errors, onChange }: { criteria: CriterionDraft[]; errors: FieldError[]; onChange(criteria: CriterionDraft[]): void }) {
  return (
    <ol className="plain scenario-items">
      {criteria.map((c, i) => (
        <li key={i} className="scenario-item">
          <div className="row">
            <label>
              Criterion {i + 1}
              <select value={c.type} onChange={(e) => onChange(criteria.map((x, j) => (j === i ? newCriterion(e.target.value as CriterionType) : x)))}>
                {Object.entries(CRITERIA).map(([type, { text }]) => (
                  <option key={type} value={type}>
                    {text}
                  </option>
                ))}
              </select>
            </label>
            <CriterionFields c={c} n={i + 1} onChange={(change) => onChange(edit(criteria, i, change))} />
            <button type="button" className="link" onClick={() => onChange(without(criteria, i))}>
              Remove criterion {i + 1}
            </button>
          </div>
          <Errors errors={errors} field={`criteria[${i}]`} />
        </li>
      ))}
      <li>
        <button type="button" className="link" onClick={() => onChange([...criteria, newCriterion()])}>
          Add a criterion
        </button>
      </li>
    </ol>
  );
}

/**
 * Creates a scenario of the agent, or edits `scenario`: the caller (a script of say, keys and
 * silences, or a persona with its turns), dynamic variables and criteria, the judge's rubric
 * among them; the API's field errors beside each field.
 */
export function ScenarioForm({ agentId, scenario, onDone }: { agentId: string; scenario?: ScenarioRowFragment; onDone(): void }) {
  const [draft, setDraft] = useState<ScenarioDraft>(() => (scenario ? draftOf(scenario) : emptyDraft()));
  const [local, setLocal] = useState<FieldError[]>([]);
  const [created, create] = useMutation(CREATE);
  const [updated, update] = useMutation(UPDATE);
  const result = scenario ? updated : created;
  const errors = [...local, ...fieldErrors(result.error)];
  const set = (change: Partial<ScenarioDraft>) => setDraft((d) => ({ ...d, ...change }));
  const title = scenario ? `Edit ${scenario.name}` : 'New scenario';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { input, errors: found } = inputOf(draft);
    setLocal(found);
    if (found.length > 0) return;
    const res = scenario ? await update({ id: scenario.id, input }) : await create({ agentId, input });
    if (!res.error) onDone();
  }

  return (
    <form className="card" onSubmit={submit} aria-label={title} noValidate>
      <h3>{title}</h3>
      <label>
        Scenario name <input value={draft.name} onChange={(e) => set({ name: e.target.value })} autoFocus />
      </label>
      <Errors errors={errors} field="name" />
      <fieldset className="choices">
        <legend>The caller</legend>
        <label className="inline">
          <input type="radio" name="caller" checked={draft.caller === 'script'} onChange={() => set({ caller: 'script' })} /> A script
        </label>
        <label className="inline">
          <input type="radio" name="caller" checked={draft.caller === 'persona'} onChange={() => set({ caller: 'persona' })} /> A persona the model plays
        </label>
      </fieldset>
      <Errors errors={errors} field="callerTurns" exact />
      {draft.caller === 'script' ? (
        <Steps steps={draft.steps} errors={errors} onChange={(steps) => set({ steps })} />
      ) : (
        <div className="field">
          <label>
            Persona: who the caller is and what they want <textarea rows={3} value={draft.persona} onChange={(e) => set({ persona: e.target.value })} />
          </label>
          <label>
            Persona: turns before hanging up (1-50) <input value={draft.maxTurns} inputMode="numeric" onChange={(e) => set({ maxTurns: e.target.value })} />
          </label>
        </div>
      )}
      <Errors errors={errors} field="callerPersona" />
      <fieldset>
        <legend>Dynamic variables</legend>
        {draft.variables.map((v, i) => (
          <div className="row" key={i}>
            <label>
              Variable {i + 1} name <input value={v.name} onChange={(e) => set({ variables: edit(draft.variables, i, { name: e.target.value }) })} />
            </label>
            <label>
              Variable {i + 1} value <input value={v.value} onChange={(e) => set({ variables: edit(draft.variables, i, { value: e.target.value }) })} />
            </label>
            <button type="button" className="link" onClick={() => set({ variables: without(draft.variables, i) })}>
              Remove variable {i + 1}
            </button>
          </div>
        ))}
        <button type="button" className="link" onClick={() => set({ variables: [...draft.variables, { name: '', value: '' }] })}>
          Add a variable
        </button>
        <Errors errors={errors} field="dynamicVariables" />
      </fieldset>
      <fieldset>
        <legend>Criteria (the scenario passes when every one does)</legend>
        <Criteria criteria={draft.criteria} errors={errors} onChange={(criteria) => set({ criteria })} />
        <Errors errors={errors} field="criteria" exact />
      </fieldset>
      <div className="row">
        <button type="submit" disabled={result.fetching}>
          {scenario ? 'Save scenario' : 'Create scenario'}
        </button>
        <button type="button" className="link" onClick={onDone}>
          Cancel
        </button>
      </div>
      {errors.length === 0 && <Problem error={result.error} />}
    </form>
  );
}
