import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { FieldMessage, Problem } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { graphql } from '../gql';
import { href, navigate } from '../router';
import { EventsFields, newStep, type StepDraft, StepsEditor, stepsInput } from './FlowSteps';

const CREATE = graphql(`
  mutation CreateFlow($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }
`);

/** A new flow: its name, its steps, the events it runs on, switched on or not. */
export function NewFlowPage() {
  const [result, create] = useMutation(CREATE);
  const [drafts, setDrafts] = useState<StepDraft[]>(() => [newStep(1)]);
  const [local, setLocal] = useState<FieldError[]>([]);
  const errors = [...local, ...fieldErrors(result.error)];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { steps, errors: bad } = stepsInput(drafts);
    setLocal(bad);
    if (bad.length > 0) return;
    const res = await create({
      input: { name: String(form.get('name')), status: form.get('on') === 'on' ? 'running' : 'stopped', events: form.getAll('event').map(String), steps },
    });
    if (res.data) navigate('flows', res.data.createWebhook.id);
  }

  return (
    <>
      <p><a href={href('flows')}>← Flows</a></p>
      <h1>New flow</h1>
      <form className="card" onSubmit={submit} aria-labelledby="new-flow" noValidate>
        <h2 id="new-flow">Flow</h2>
        <label>Name <input name="name" required /></label>
        <FieldMessage errors={errors} field="name" />
        <label className="inline"><input type="checkbox" name="on" defaultChecked /> Switched on (a stopped flow refuses triggers and hears no events)</label>
        <EventsFields events={[]} errors={errors} />
        <StepsEditor drafts={drafts} setDrafts={setDrafts} errors={errors} />
        <button type="submit" disabled={result.fetching}>Create the flow</button>
        {errors.length === 0 && <Problem error={result.error} />}
      </form>
    </>
  );
}
