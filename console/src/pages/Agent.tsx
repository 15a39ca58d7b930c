import { type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { FieldMessage, notYet, Problem } from '../components';
import { fieldErrors } from '../errors';
import { graphql } from '../gql';
import type { AgentPageQuery } from '../gql/graphql';
import { href } from '../router';
import { AgentScenarios } from './AgentScenarios';
import { CallSettings, callSettingsInput } from './CallSettings';
import { Playground } from './Playground';

const AGENT = graphql(`
  query AgentPage($id: ID!) {
    aiAgent(id: $id) {
      id name description language status prompt startingState whoTalksFirst isTemplate
      llmTemperature responsiveness interruptionSensitivity maxSilenceDuration agentFlow
      voicemailAction voicemailMessage callRecording openingDisclosure welcomeGreeting transferMode holdAudioUrl
    }
  }
`);

const UPDATE = graphql(`
  mutation UpdateAgent($id: ID!, $input: UpdateAiAgentInput!) {
    updateAiAgent(id: $id, input: $input) {
      id name description language prompt llmTemperature responsiveness interruptionSensitivity maxSilenceDuration
      voicemailAction voicemailMessage callRecording openingDisclosure welcomeGreeting transferMode holdAudioUrl
    }
  }
`);

type Agent = NonNullable<AgentPageQuery['aiAgent']>;

/** The settings edited here: the API's field name (its errors name it too) and how to read the input. */
const NUMBERS = [
  { key: 'llmTemperature', text: 'Model temperature (0-100)' },
  { key: 'responsiveness', text: 'Responsiveness (0-100)' },
  { key: 'interruptionSensitivity', text: 'Interruption sensitivity (0-100)' },
  { key: 'maxSilenceDuration', text: 'Longest silence (seconds)' },
] as const;

function AgentForm({ agent }: { agent: Agent }) {
  const [result, update] = useMutation(UPDATE);
  const [saved, setSaved] = useState(false);
  const errors = fieldErrors(result.error);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const numbers = Object.fromEntries(NUMBERS.map((n) => [n.key, Number(form.get(n.key))]));
    const res = await update({
      id: agent.id,
      input: { name: String(form.get('name')), description: String(form.get('description')), language: String(form.get('language')), prompt: String(form.get('prompt')), ...numbers, ...callSettingsInput(form) },
    });
    setSaved(!res.error);
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="agent-settings" noValidate>
      <h2 id="agent-settings">Prompt and settings</h2>
      <label>Name <input name="name" defaultValue={agent.name} /></label>
      <FieldMessage errors={errors} field="name" />
      <label>Description <input name="description" defaultValue={agent.description} /></label>
      <label>Language <input name="language" defaultValue={agent.language} /></label>
      <FieldMessage errors={errors} field="language" />
      <label>Prompt <textarea name="prompt" rows={8} defaultValue={agent.prompt} /></label>
      <FieldMessage errors={errors} field="prompt" />
      <div className="row">
        {NUMBERS.map((n) => (
          <div key={n.key}>
            <label>{n.text} <input name={n.key} inputMode="numeric" defaultValue={agent[n.key]} /></label>
            <FieldMessage errors={errors} field={n.key} />
          </div>
        ))}
      </div>
      <CallSettings agent={agent} errors={errors} />
      <button type="submit" disabled={result.fetching || agent.isTemplate}>Save</button>
      {errors.length === 0 && <Problem error={result.error} />}
      <p role="status">{saved ? 'Saved.' : ''}</p>
    </form>
  );
}

/** One agent: its prompt and settings, a playground to talk with it, and its test scenarios and runs. */
export function AgentPage({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: AGENT, variables: { id } });
  const agent = data?.aiAgent;
  if (!agent) return notYet(error, Boolean(data), 'agent');
  return (
    <>
      <p><a href={href('agents')}>← Agents</a></p>
      <h1>{agent.name}</h1>
      <div className="grid">
        <AgentForm agent={agent} key={agent.id} />
        <Playground agent={agent} />
      </div>
      <AgentScenarios agentId={agent.id} isTemplate={agent.isTemplate} />
    </>
  );
}
