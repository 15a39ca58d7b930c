import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { Problem, Table } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { dateTime } from '../format';
import { graphql } from '../gql';
import type { RunRowFragment, ScenarioRowFragment } from '../gql/graphql';
import { href, navigate } from '../router';
import { ScenarioForm } from './ScenarioForm';
import { criterionLabel } from './scenario-draft';
import { RunStatus, versionInput, VersionField } from './run-parts';

graphql(`
  fragment ScenarioRow on AgentScenario {
    id
    name
    callerTurns {
      say
      interruptAfterMs
      dtmf
      silenceMs
    }
    callerPersona {
      prompt
      maxTurns
    }
    dynamicVariables {
      name
      value
    }
    criteria
  }
`);

graphql(`
  fragment RunRow on AgentTestRun {
    id
    status
    passed
    total
    done
    version
    replayOf
    createdAt
  }
`);

const SCENARIOS = graphql(`
  query AgentScenarios($agentId: ID!) {
    agentScenarios(agentId: $agentId) {
      ...ScenarioRow
    }
    agentTestRuns(agentId: $agentId) {
      ...RunRow
    }
  }
`);

const RUNS_LIVE = graphql(`
  subscription AgentRunsLive($agentId: ID!) {
    agentTestRunUpdated(agentId: $agentId) {
      ...RunRow
    }
  }
`);

const DELETE = graphql(`
  mutation DeleteScenario($id: ID!) {
    deleteAgentScenario(id: $id)
  }
`);

const RUN = graphql(`
  mutation RunSuite($agentId: ID!, $input: RunAgentTestsInput) {
    runAgentTests(agentId: $agentId, input: $input) {
      id
    }
  }
`);

/** Who calls in a scenario, in a few words. */
const callerText = (s: ScenarioRowFragment) => (s.callerPersona ? `persona, ${s.callerPersona.maxTurns} turns` : `script of ${s.callerTurns?.length ?? 0} steps`);

/** The "Delete" of a row, asked in place: the question's Delete takes the focus, "Keep it" gives it back. */
function DeleteScenario({ scenario, onDeleted }: { scenario: ScenarioRowFragment; onDeleted(): void }) {
  const [asked, setAsked] = useState(false);
  const [result, remove] = useMutation(DELETE);
  const trigger = useRef<HTMLButtonElement>(null);
  const kept = useRef(false);
  useEffect(() => {
    if (asked || !kept.current) return;
    kept.current = false;
    trigger.current?.focus();
  }, [asked]);
  if (!asked)
    return (
      <button type="button" className="link" ref={trigger} onClick={() => setAsked(true)}>
        Delete {scenario.name}
      </button>
    );
  return (
    <span role="alertdialog" aria-label={`Delete ${scenario.name}?`}>
      Delete it?{' '}
      <button
        type="button"
        autoFocus
        disabled={result.fetching}
        onClick={async () => {
          if (!(await remove({ id: scenario.id })).error) onDeleted();
        }}
      >
        Delete
      </button>{' '}
      <button
        type="button"
        className="link"
        onClick={() => {
          kept.current = true;
          setAsked(false);
        }}
      >
        Keep it
      </button>
      <Problem error={result.error} />
    </span>
  );
}

/** Runs all the scenarios, or those selected, against the draft or a version; opens the run. */
function RunSuite({ agentId, selected }: { agentId: string; selected: string[] }) {
  const [result, run] = useMutation(RUN);
  const [local, setLocal] = useState<FieldError[]>([]);
  const errors = [...local, ...fieldErrors(result.error)];
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const only = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'selected';
    const { version, errors: found } = versionInput(new FormData(event.currentTarget));
    setLocal(found);
    if (found.length > 0) return;
    const res = await run({ agentId, input: { version, ...(only ? { scenarioIds: selected } : {}) } });
    if (res.data) navigate('test-runs', res.data.runAgentTests.id);
  }
  return (
    <form className="row" onSubmit={submit} aria-label="Run suite">
      <VersionField errors={errors} />
      <button type="submit" value="all" disabled={result.fetching}>
        Run suite
      </button>
      <button type="submit" value="selected" disabled={result.fetching || selected.length === 0}>
        Run selected ({selected.length})
      </button>
      {errors.length === 0 && <Problem error={result.error} />}
    </form>
  );
}

/** The agent's runs and replays, newest first, their status kept live. */
function Runs({ agentId, runs }: { agentId: string; runs: RunRowFragment[] }) {
  const [live] = useSubscription({ query: RUNS_LIVE, variables: { agentId } }, (seen: Map<string, RunRowFragment> = new Map(), e) =>
    new Map(seen).set(e.agentTestRunUpdated.id, e.agentTestRunUpdated),
  );
  const all = useMemo(() => {
    const byId = new Map(runs.map((r) => [r.id, r]));
    for (const [id, run] of live.data ?? []) byId.set(id, run);
    return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }, [runs, live.data]);
  if (all.length === 0) return <p>No runs yet.</p>;
  return (
    <Table headers={['Run', 'Status', 'Scenarios', 'Version', 'Asked for']} caption="Runs and replays">
      {all.map((r) => (
        <tr key={r.id}>
          <td>
            <a href={href('test-runs', r.id)}>
              {r.replayOf ? 'Replay' : 'Run'} {r.id.slice(0, 8)}
            </a>
          </td>
          <td>
            <RunStatus status={r.status} />
          </td>
          <td>
            {r.done} of {r.total}
          </td>
          <td>{r.version ?? 'draft'}</td>
          <td>{dateTime(r.createdAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** An agent's test scenarios (list, create, edit, delete), "Run suite", and its latest runs. */
export function AgentScenarios({ agentId, isTemplate }: { agentId: string; isTemplate: boolean }) {
  const [{ data, error }, reexecute] = useQuery({ query: SCENARIOS, variables: { agentId }, pause: isTemplate });
  const [editing, setEditing] = useState<ScenarioRowFragment | 'new' | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const heading = useRef<HTMLHeadingElement>(null);
  // After a form closes or a row goes, the focus moves to the section's title, not the page's body.
  const reread = () => {
    reexecute({ requestPolicy: 'network-only' });
    heading.current?.focus();
  };
  const scenarios = data?.agentScenarios ?? [];
  const done = () => {
    setEditing(null);
    reread();
  };
  return (
    <section className="card" aria-labelledby="agent-scenarios">
      <h2 id="agent-scenarios" ref={heading} tabIndex={-1}>
        Test scenarios
      </h2>
      <Problem error={error} />
      {isTemplate ? (
        <p>A template has no scenarios: copy it into an agent of your own to test it.</p>
      ) : (
        <>
          {data && scenarios.length === 0 && <p>No scenarios yet: each is a simulated caller and what its call must show.</p>}
          {scenarios.length > 0 && (
            <Table headers={['Run', 'Scenario', 'Caller', 'Criteria', 'Actions']} caption="Scenarios">
              {scenarios.map((s) => (
                <tr key={s.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${s.name}`}
                      checked={selected.includes(s.id)}
                      onChange={(e) => setSelected((all) => (e.target.checked ? [...all, s.id] : all.filter((x) => x !== s.id)))}
                    />
                  </td>
                  <td>{s.name}</td>
                  <td>{callerText(s)}</td>
                  <td className="wrap">{s.criteria.map(criterionLabel).join(', ') || 'none'}</td>
                  <td>
                    <button type="button" className="link" onClick={() => setEditing(s)}>
                      Edit {s.name}
                    </button>{' '}
                    <DeleteScenario
                      scenario={s}
                      onDeleted={() => {
                        setSelected((all) => all.filter((x) => x !== s.id));
                        reread();
                      }}
                    />
                  </td>
                </tr>
              ))}
            </Table>
          )}
          {editing ? (
            <ScenarioForm key={editing === 'new' ? 'new' : editing.id} agentId={agentId} scenario={editing === 'new' ? undefined : editing} onDone={done} />
          ) : (
            <button type="button" onClick={() => setEditing('new')}>
              New scenario
            </button>
          )}
          {scenarios.length > 0 && <RunSuite agentId={agentId} selected={selected.filter((id) => scenarios.some((s) => s.id === id))} />}
          <h3>Runs</h3>
          <Runs agentId={agentId} runs={data?.agentTestRuns ?? []} />
        </>
      )}
    </section>
  );
}
