import { type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { DeleteCard, FieldMessage, notYet, Problem } from '../components';
import { type FieldError, fieldErrors } from '../errors';
import { graphql } from '../gql';
import type { AgentPageQuery } from '../gql/graphql';
import { href, navigate } from '../router';
import { AgentScenarios } from './AgentScenarios';
import { AgentVersions } from './AgentVersions';
import { NUMBERS, OBJECTS, TEXTS } from './agent-fields';
import { CallSettings, callSettingsInput } from './CallSettings';
import { Playground } from './Playground';

graphql(`
  fragment AgentFields on AiAgent {
    name
    description
    language
    status
    prompt
    startingState
    whoTalksFirst
    agentType
    backgroundAudioStatus
    llmTemperature
    responsiveness
    interruptionSensitivity
    maxSilenceDuration
    voiceSpeed
    voiceTemperature
    reminderFrequencyFrom
    reminderFrequencyTo
    voicemailAction
    voicemailMessage
    callRecording
    openingDisclosure
    welcomeGreeting
    transferMode
    holdAudioUrl
    agentFlow
    agentDynamicVariables
    agentPostCallOutcomes
  }
`);

const AGENT = graphql(`
  query AgentPage($id: ID!) {
    aiAgent(id: $id) {
      id
      isTemplate
      ...AgentFields
    }
  }
`);

const UPDATE = graphql(`
  mutation UpdateAgent($id: ID!, $input: UpdateAiAgentInput!) {
    updateAiAgent(id: $id, input: $input) {
      id
      isTemplate
      ...AgentFields
    }
  }
`);

const DELETE = graphql(`
  mutation DeleteAgent($id: ID!) {
    deleteAiAgent(id: $id)
  }
`);

type Agent = NonNullable<AgentPageQuery['aiAgent']>;

/** The JSON settings of the form, or the field errors of those that are not JSON objects. */
function objectsOf(form: FormData): { values: Record<string, Record<string, unknown>>; errors: FieldError[] } {
  const values: Record<string, Record<string, unknown>> = {};
  const errors: FieldError[] = [];
  for (const o of OBJECTS) {
    try {
      const value: unknown = JSON.parse(String(form.get(o.key)));
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
      values[o.key] = value as Record<string, unknown>;
    } catch {
      errors.push({ field: o.key, message: 'Must be a JSON object, e.g. {}.' });
    }
  }
  return { values, errors };
}

function AgentForm({ agent }: { agent: Agent }) {
  const [result, update] = useMutation(UPDATE);
  const [saved, setSaved] = useState(false);
  const [local, setLocal] = useState<FieldError[]>([]);
  const errors = [...local, ...fieldErrors(result.error)];
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const objects = objectsOf(form);
    setLocal(objects.errors);
    if (objects.errors.length > 0) return;
    const texts = Object.fromEntries(TEXTS.map((t) => [t.key, String(form.get(t.key))]));
    // Numbers as typed: the API says what is wrong with them, beside the field.
    const numbers = Object.fromEntries(NUMBERS.map((n) => [n.key, Number(form.get(n.key))]));
    const res = await update({
      id: agent.id,
      input: { ...texts, prompt: String(form.get('prompt')), whoTalksFirst: String(form.get('whoTalksFirst')), ...numbers, ...objects.values, ...callSettingsInput(form) },
    });
    setSaved(!res.error);
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="agent-settings" noValidate>
      <h2 id="agent-settings">Prompt and settings</h2>
      {TEXTS.slice(0, 3).map((t) => (
        <div key={t.key} className="field">
          <label>
            {t.text} <input name={t.key} defaultValue={agent[t.key]} />
          </label>
          <FieldMessage errors={errors} field={t.key} />
        </div>
      ))}
      <label>
        Prompt <textarea name="prompt" rows={8} defaultValue={agent.prompt} />
      </label>
      <FieldMessage errors={errors} field="prompt" />
      <label>
        Who talks first
        <select name="whoTalksFirst" defaultValue={agent.whoTalksFirst}>
          <option value="agent">the agent</option>
          <option value="user">the person called</option>
        </select>
      </label>
      <FieldMessage errors={errors} field="whoTalksFirst" />
      <fieldset>
        <legend>Model and voice</legend>
        <div className="row">
          {NUMBERS.map((n) => (
            <div key={n.key}>
              <label>
                {n.text} <input name={n.key} inputMode="numeric" defaultValue={agent[n.key]} />
              </label>
              <FieldMessage errors={errors} field={n.key} />
            </div>
          ))}
        </div>
      </fieldset>
      <CallSettings agent={agent} errors={errors} />
      <details>
        <summary>More: status, kind, flow, variables, outcomes</summary>
        {TEXTS.slice(3).map((t) => (
          <div key={t.key} className="field">
            <label>
              {t.text} <input name={t.key} defaultValue={agent[t.key]} />
            </label>
            <FieldMessage errors={errors} field={t.key} />
          </div>
        ))}
        {OBJECTS.map((o) => (
          <div key={o.key} className="field">
            <label>
              {o.text} <textarea name={o.key} rows={4} defaultValue={JSON.stringify(agent[o.key], null, 2)} />
            </label>
            <FieldMessage errors={errors} field={o.key} />
          </div>
        ))}
      </details>
      <button type="submit" disabled={result.fetching || agent.isTemplate}>
        Save
      </button>
      {errors.length === 0 && <Problem error={result.error} />}
      <p role="status">{saved ? 'Saved.' : ''}</p>
    </form>
  );
}

/** Deletes the agent (calls made with it keep it), then shows the list. */
function DeleteAgent({ agent }: { agent: Agent }) {
  const [result, remove] = useMutation(DELETE);
  const onDelete = () => void remove({ id: agent.id }).then((res) => res.error || navigate('agents'));
  const question = `Delete ${agent.name}? Calls made with it keep it; campaigns using it cannot call until they get another agent.`;
  return <DeleteCard what="agent" question={question} busy={result.fetching} error={result.error} onDelete={onDelete} />;
}

/** One agent: its prompt and every setting, a playground to talk with it, its published versions, its test scenarios and runs, and delete. */
export function AgentPage({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: AGENT, variables: { id } });
  const agent = data?.aiAgent;
  if (!agent) return notYet(error, Boolean(data), 'agent');
  return (
    <>
      <p>
        <a href={href('agents')}>← Agents</a>
      </p>
      <h1>{agent.name}</h1>
      <div className="grid">
        <AgentForm agent={agent} key={agent.id} />
        <Playground agent={agent} />
      </div>
      <AgentVersions agentId={agent.id} isTemplate={agent.isTemplate} />
      <AgentScenarios agentId={agent.id} isTemplate={agent.isTemplate} />
      {!agent.isTemplate && <DeleteAgent agent={agent} />}
    </>
  );
}
