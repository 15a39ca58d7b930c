import { type FormEvent, useMemo, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { DeleteCard, FieldMessage, notYet, Problem } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { dateTime, label } from '../format';
import { graphql } from '../gql';
import type { ExecutionRowFragment, FlowPageQuery } from '../gql/graphql';
import { href, navigate } from '../router';
import { draftOf, EventsFields, StepsEditor, stepsInput } from './FlowSteps';

graphql(`
  fragment ExecutionRow on WebhookExecution {
    id
    status
    attemptNumber
    variables
    createdAt
    finishedAt
    nextRetryAt
    errorMessage
    stepLog {
      attemptNumber
      stepNumber
      status
      tries
      durationMs
      error
      request
      response
      unresolvedVariables
    }
  }
`);

graphql(`
  fragment FlowStepFields on WebhookStep {
    id
    stepNumber
    webhookMethod
    webhookUrl
    dependsOnStep
    retryLimit
    timeout
    webhookTimeout
    webhookUrlParams
    webhookHeaders
    webhookBody
    successCondition
  }
`);

const FLOW = graphql(`
  query FlowPage($id: ID!) {
    webhook(id: $id) {
      id
      name
      status
      events
      isTemplate
      steps {
        ...FlowStepFields
      }
      executions(first: 20) {
        edges {
          node {
            ...ExecutionRow
          }
        }
      }
    }
  }
`);

const EXECUTIONS_LIVE = graphql(`
  subscription FlowExecutionsLive($id: ID!) {
    webhookExecutionUpdated(webhookId: $id) {
      ...ExecutionRow
    }
  }
`);

const UPDATE = graphql(`
  mutation UpdateFlow($id: ID!, $input: UpdateWebhookInput!) {
    updateWebhook(id: $id, input: $input) {
      id
      name
      status
      events
      steps {
        ...FlowStepFields
      }
    }
  }
`);

const DELETE = graphql(`
  mutation DeleteFlow($id: ID!) {
    deleteWebhook(id: $id)
  }
`);

const TRIGGER = graphql(`
  mutation TriggerFlow($id: ID!, $variables: JSONObject) {
    triggerWebhook(id: $id, variables: $variables) {
      ...ExecutionRow
    }
  }
`);

/** The start of a body, as the step log shows it. */
const excerpt = (value: unknown, max = 300) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 1);
  return text && text.length > max ? `${text.slice(0, max)}…` : (text ?? '');
};

/** A step's request (`method`, `url`, `body`) or response (`status`, `body`) as its first line and a body excerpt. */
function exchange(value: Record<string, unknown> | null | undefined): string {
  if (!value) return '—';
  const first = value.status !== undefined ? `HTTP ${value.status as number}` : `${(value.method as string | undefined) ?? ''} ${(value.url as string | undefined) ?? ''}`;
  return `${first}\n${excerpt(value.body)}`;
}

function Execution({ run }: { run: ExecutionRowFragment }) {
  return (
    <details className="execution">
      <summary>
        <span className={`badge x-${run.status}`}>{label(run.status)}</span> attempt {run.attemptNumber} · {dateTime(run.createdAt)}
        {run.errorMessage && <span className="error"> {run.errorMessage}</span>}
      </summary>
      <p>
        Variables: <code>{JSON.stringify(run.variables)}</code>
        {run.nextRetryAt && ` · next retry ${dateTime(run.nextRetryAt)}`}
      </p>
      <ol className="plain">
        {run.stepLog.map((s) => (
          <li key={`${s.attemptNumber}-${s.stepNumber}`} className="step-run">
            <strong>Step {s.stepNumber}</strong> {label(s.status)} · {s.tries} tries · {s.durationMs ?? '—'} ms {s.error && <span className="error">{s.error}</span>}
            {s.unresolvedVariables.length > 0 && <p>Unresolved: {s.unresolvedVariables.join(', ')}</p>}
            <div className="grid">
              <pre aria-label="Request">{exchange(s.request)}</pre>
              <pre aria-label="Response excerpt">{exchange(s.response)}</pre>
            </div>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Switches the flow on (running) or off (stopped). */
function OnOff({ flow }: { flow: Flow }) {
  const [result, update] = useMutation(UPDATE);
  const on = flow.status === 'RUNNING';
  return (
    <section className="card" aria-labelledby="on-off">
      <h2 id="on-off">Switched {on ? 'on' : 'off'}</h2>
      <p>{on ? 'The flow runs when triggered and on the events it subscribes to.' : 'A stopped flow refuses triggers and hears no events (those that happen meanwhile are not kept).'}</p>
      <button type="button" onClick={() => update({ id: flow.id, input: { status: on ? 'stopped' : 'running' } })} disabled={result.fetching}>
        {on ? 'Switch off' : 'Switch on'}
      </button>
      <Problem error={result.error} />
    </section>
  );
}

type Flow = NonNullable<FlowPageQuery['webhook']>;

/** The stored steps as the editor holds them (what the API answered, without its own fields). */
const draftsOf = (flow: Flow) =>
  flow.steps.map((s) =>
    draftOf({
      stepNumber: s.stepNumber,
      webhookUrl: s.webhookUrl,
      webhookMethod: s.webhookMethod,
      webhookTimeout: s.webhookTimeout,
      retryLimit: s.retryLimit,
      timeout: s.timeout,
      webhookUrlParams: s.webhookUrlParams,
      webhookHeaders: s.webhookHeaders,
      webhookBody: s.webhookBody,
      dependsOnStep: s.dependsOnStep,
      successCondition: s.successCondition,
    }),
  );

/** The flow's name, event subscriptions and steps, saved together (the steps replace the old ones). */
function FlowForm({ flow }: { flow: Flow }) {
  const [result, update] = useMutation(UPDATE);
  const [drafts, setDrafts] = useState(() => draftsOf(flow));
  const [local, setLocal] = useState<FieldError[]>([]);
  const [saved, setSaved] = useState(false);
  const errors = [...local, ...fieldErrors(result.error)];
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const { steps, errors: bad } = stepsInput(drafts);
    setLocal(bad);
    if (bad.length > 0) return;
    const res = await update({ id: flow.id, input: { name: String(form.get('name')), events: form.getAll('event').map(String), steps } });
    setSaved(!res.error);
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="flow-settings" noValidate>
      <h2 id="flow-settings">Steps and events</h2>
      <label>
        Name <input name="name" defaultValue={flow.name} />
      </label>
      <FieldMessage errors={errors} field="name" />
      <EventsFields events={flow.events} errors={errors} />
      <StepsEditor drafts={drafts} setDrafts={setDrafts} errors={errors} />
      <button type="submit" disabled={result.fetching || flow.isTemplate}>
        Save
      </button>
      {errors.length === 0 && <Problem error={result.error} />}
      <p role="status">{saved ? 'Saved.' : ''}</p>
    </form>
  );
}

function TriggerForm({ id, onRun }: { id: string; onRun(run: ExecutionRowFragment): void }) {
  const [result, trigger] = useMutation(TRIGGER);
  const [problem, setProblem] = useState('');
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('variables') ?? '').trim();
    let variables: Record<string, unknown> = {};
    try {
      variables = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      setProblem('Variables must be a JSON object, e.g. {"call_id": "abc"}.');
      return;
    }
    setProblem('');
    const res = await trigger({ id, variables });
    if (res.data) onRun(res.data.triggerWebhook);
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="trigger">
      <h2 id="trigger">Trigger</h2>
      <label>
        Variables (JSON) <textarea name="variables" rows={3} placeholder='{"call_id": "abc"}' />
      </label>
      <p className="error" role="alert">
        {problem}
      </p>
      <FieldMessage errors={fieldErrors(result.error)} field="variables" />
      <Problem error={result.error} />
      <button type="submit" disabled={result.fetching}>
        Trigger
      </button>
    </form>
  );
}

/** One flow: its steps, its executions with their step logs (live), and a trigger form. */
export function FlowPage({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: FLOW, variables: { id } });
  const [mine, setMine] = useState<ExecutionRowFragment[]>([]);
  const [live] = useSubscription({ query: EXECUTIONS_LIVE, variables: { id } }, (seen: Map<string, ExecutionRowFragment> = new Map(), e) =>
    new Map(seen).set(e.webhookExecutionUpdated.id, e.webhookExecutionUpdated),
  );
  const runs = useMemo(() => {
    const byId = new Map((data?.webhook?.executions.edges ?? []).map((e) => [e.node.id, e.node]));
    for (const run of mine) if (!byId.has(run.id)) byId.set(run.id, run);
    for (const [runId, run] of live.data ?? []) byId.set(runId, run);
    return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }, [data, mine, live.data]);
  const [deleted, remove] = useMutation(DELETE);
  const flow = data?.webhook;
  if (!flow) return notYet(error, Boolean(data), 'flow');
  const onDelete = () => void remove({ id }).then((res) => res.error || navigate('flows'));
  return (
    <>
      <p>
        <a href={href('flows')}>← Flows</a>
      </p>
      <h1>
        {flow.name}{' '}
        <span className="badge" data-testid="flow-status">
          {label(flow.status)}
        </span>
      </h1>
      <div className="grid">
        <OnOff flow={flow} />
        {flow.status === 'RUNNING' ? (
          <TriggerForm id={id} onRun={(run) => setMine((all) => [run, ...all])} />
        ) : (
          <section className="card" aria-labelledby="trigger">
            <h2 id="trigger">Trigger</h2>
            <p>This flow is switched off: switch it on to trigger it.</p>
          </section>
        )}
      </div>
      <FlowForm flow={flow} key={flow.id} />
      <section className="card" aria-labelledby="executions">
        <h2 id="executions">Executions</h2>
        {runs.length === 0 && <p>None yet.</p>}
        {runs.map((run) => (
          <Execution key={run.id} run={run} />
        ))}
      </section>
      {!flow.isTemplate && (
        <DeleteCard
          what="flow"
          question={`Delete ${flow.name}? Its executions stop; campaigns using it run no flow after their calls.`}
          busy={deleted.fetching}
          error={deleted.error}
          onDelete={onDelete}
        />
      )}
    </>
  );
}
