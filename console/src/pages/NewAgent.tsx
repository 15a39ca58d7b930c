import { type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { FieldMessage, Problem } from '../components';
import { fieldErrors } from '../errors';
import { graphql } from '../gql';
import { href, navigate } from '../router';
import { settingsOf } from './agent-fields';

const TEMPLATES = graphql(`
  query AgentTemplates {
    aiAgentTemplates {
      id
      ...AgentFields
    }
  }
`);

const CREATE = graphql(`
  mutation CreateAgent($input: CreateAiAgentInput!) {
    createAiAgent(input: $input) {
      id
    }
  }
`);

/** A new agent, from scratch or as a copy of a template's settings; then its page to edit the rest. */
export function NewAgentPage() {
  const [{ data, error }] = useQuery({ query: TEMPLATES });
  const [result, create] = useMutation(CREATE);
  const [templateId, setTemplateId] = useState('');
  const errors = fieldErrors(result.error);
  const template = data?.aiAgentTemplates.find((t) => t.id === templateId);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const own = { name: String(form.get('name')), prompt: String(form.get('prompt')) };
    const res = await create({ input: template ? { ...settingsOf(template), ...own } : own });
    if (res.data) navigate('agents', res.data.createAiAgent.id);
  }

  return (
    <>
      <p>
        <a href={href('agents')}>← Agents</a>
      </p>
      <h1>New agent</h1>
      <form className="card" onSubmit={submit} aria-labelledby="new-agent" noValidate>
        <h2 id="new-agent">Start from</h2>
        <Problem error={error} />
        <label>
          Template
          <select value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
            <option value="">none (from scratch)</option>
            {data?.aiAgentTemplates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        {template && <p className="hint">{template.description} Its prompt and every setting are copied; edit them on the new agent's page.</p>}
        <label>
          Name <input name="name" required />
        </label>
        <FieldMessage errors={errors} field="name" />
        <label>
          Prompt <textarea name="prompt" rows={6} key={templateId} defaultValue={template?.prompt ?? ''} />
        </label>
        <FieldMessage errors={errors} field="prompt" />
        <button type="submit" disabled={result.fetching}>
          Create the agent
        </button>
        {errors.length === 0 && <Problem error={result.error} />}
      </form>
    </>
  );
}
