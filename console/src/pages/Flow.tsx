import { type FormEvent, useMemo, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { FieldMessage, notYet, Problem } from '../components';
import { fieldErrors } from '../errors';
import { dateTime, label } from '../format';
import { graphql } from '../gql';
import type { ExecutionRowFragment } from '../gql/graphql';
import { href } from '../router';

graphql(`
  fragment ExecutionRow on WebhookExecution {
    id status attemptNumber variables createdAt finishedAt nextRetryAt errorMessage
    stepLog { attemptNumber stepNumber status tries durationMs error request response unresolvedVariables }
  }
`);

const FLOW = graphql(`
  query FlowPage($id: ID!) {
    webhook(id: $id) {
      id name status events
      steps { id stepNumber webhookMethod webhookUrl dependsOnStep retryLimit timeout }
      executions(first: 20) { edges { node { ...ExecutionRow } } }
    }
  }
`);

const EXECUTIONS_LIVE = graphql(`
  subscription FlowExecutionsLive($id: ID!) { webhookExecutionUpdated(webhookId: $id) { ...ExecutionRow } }
`);

const TRIGGER = graphql(`
  mutation TriggerFlow($id: ID!, $variables: JSONObject) { triggerWebhook(id: $id, variables: $variables) { ...ExecutionRow } }
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
      <p>Variables: <code>{JSON.stringify(run.variables)}</code>{run.nextRetryAt && ` · next retry ${dateTime(run.nextRetryAt)}`}</p>
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
      <label>Variables (JSON) <textarea name="variables" rows={3} placeholder='{"call_id": "abc"}' /></label>
      <p className="error" role="alert">{problem}</p>
      <FieldMessage errors={fieldErrors(result.error)} field="variables" />
      <Problem error={result.error} />
      <button type="submit" disabled={result.fetching}>Trigger</button>
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
  const flow = data?.webhook;
  if (!flow) return notYet(error, Boolean(data), 'flow');
  return (
    <>
      <p><a href={href('flows')}>← Flows</a></p>
      <h1>{flow.name} <span className="badge">{label(flow.status)}</span></h1>
      <section className="card" aria-labelledby="steps">
        <h2 id="steps">Steps</h2>
        <ol className="plain">
          {flow.steps.map((s) => (
            <li key={s.id}><strong>{s.stepNumber}.</strong> <code>{s.webhookMethod} {s.webhookUrl}</code>{s.dependsOnStep ? ` after step ${s.dependsOnStep}` : ''} · {s.retryLimit} retries · {s.timeout} s</li>
          ))}
        </ol>
      </section>
      <TriggerForm id={id} onRun={(run) => setMine((all) => [run, ...all])} />
      <section className="card" aria-labelledby="executions">
        <h2 id="executions">Executions</h2>
        {runs.length === 0 && <p>None yet.</p>}
        {runs.map((run) => <Execution key={run.id} run={run} />)}
      </section>
    </>
  );
}
