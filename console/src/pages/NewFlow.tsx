import { type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { FieldMessage, Problem } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { graphql } from '../gql';
import { href } from '../router';
import { EventsFields, newStep, type StepDraft, StepsEditor, stepsInput } from './FlowSteps';

const TEMPLATES = graphql(`
  query FlowTemplates {
    integrationTemplates {
      id
      name
      categoryName
    }
  }
`);

const CREATE = graphql(`
  mutation CreateFlow($input: CreateWebhookInput!) {
    createWebhook(input: $input) {
      id
      name
      secret
    }
  }
`);

const USE_TEMPLATE = graphql(`
  mutation UseFlowTemplate($id: ID!, $name: String) {
    useIntegrationTemplate(id: $id, name: $name) {
      id
      name
      secret
    }
  }
`);

/** The flow just made, with its signing secret: shown this once, as the API answers it only once. */
function Created({ flow }: { flow: { id: string; name: string; secret?: string | null } }) {
  return (
    <section className="card" aria-labelledby="created" role="status">
      <h2 id="created">{flow.name} is created</h2>
      <p>Its signing secret, to check the signature of its requests (copy it now: it is not shown again):</p>
      <p className="secret" data-testid="flow-secret">
        {flow.secret}
      </p>
      <p>
        <a className="button" href={href('flows', flow.id)}>
          Open the flow
        </a>
      </p>
    </section>
  );
}

/** A new flow: from an integration template, or its name, steps and events, switched on or not. */
export function NewFlowPage() {
  const [{ data, error }] = useQuery({ query: TEMPLATES });
  const [created, create] = useMutation(CREATE);
  const [copied, copy] = useMutation(USE_TEMPLATE);
  const [templateId, setTemplateId] = useState('');
  const [drafts, setDrafts] = useState<StepDraft[]>(() => [newStep(1)]);
  const [local, setLocal] = useState<FieldError[]>([]);
  const failure = templateId ? copied.error : created.error;
  const errors = [...local, ...fieldErrors(failure)];
  const flow = created.data?.createWebhook ?? copied.data?.useIntegrationTemplate;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name'));
    if (templateId) return void copy({ id: templateId, name: name || null });
    const { steps, errors: bad } = stepsInput(drafts);
    setLocal(bad);
    if (bad.length > 0) return;
    await create({ input: { name, status: form.get('on') === 'on' ? 'running' : 'stopped', events: form.getAll('event').map(String), steps } });
  }

  if (flow) return <Created flow={flow} />;
  return (
    <>
      <p>
        <a href={href('flows')}>← Flows</a>
      </p>
      <h1>New flow</h1>
      <form className="card" onSubmit={submit} aria-labelledby="new-flow" noValidate>
        <h2 id="new-flow">Flow</h2>
        <Problem error={error} />
        <label>
          Integration template
          <select value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
            <option value="">none (steps of my own)</option>
            {data?.integrationTemplates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.categoryName})
              </option>
            ))}
          </select>
        </label>
        <label>
          Name <input name="name" required={!templateId} placeholder={templateId ? "the template's" : undefined} />
        </label>
        <FieldMessage errors={errors} field="name" />
        {templateId ? (
          <p className="hint">The template's steps and variables are copied into a new flow, switched on; edit them on its page.</p>
        ) : (
          <>
            <label className="inline">
              <input type="checkbox" name="on" defaultChecked /> Switched on (a stopped flow refuses triggers and hears no events)
            </label>
            <EventsFields events={[]} errors={errors} />
            <StepsEditor drafts={drafts} setDrafts={setDrafts} errors={errors} />
          </>
        )}
        <button type="submit" disabled={created.fetching || copied.fetching}>
          Create the flow
        </button>
        {errors.length === 0 && <Problem error={failure} />}
      </form>
    </>
  );
}
