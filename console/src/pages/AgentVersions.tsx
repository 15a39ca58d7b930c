import { type FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { FieldMessage, Problem, Table } from '../components';
import { fieldErrors } from '../errors';
import { dateTime } from '../format';
import { graphql } from '../gql';
import type { AgentVersionsQuery } from '../gql/graphql';

const VERSIONS = graphql(`
  query AgentVersions($id: ID!) {
    aiAgent(id: $id) {
      id
      versions(first: 100) {
        edges {
          node {
            id
            version
            publishedAt
            note
            name
            description
            language
            status
            prompt
            startingState
            whoTalksFirst
            reminderFrequencyFrom
            reminderFrequencyTo
            maxSilenceDuration
            responsiveness
            voiceSpeed
            voiceTemperature
            interruptionSensitivity
            llmTemperature
            agentType
            backgroundAudioStatus
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
        }
      }
    }
  }
`);

const PUBLISH = graphql(`
  mutation PublishAgent($id: ID!, $input: PublishAiAgentInput) {
    publishAiAgent(id: $id, input: $input) {
      id
      version
    }
  }
`);

type Version = NonNullable<AgentVersionsQuery['aiAgent']>['versions']['edges'][number]['node'];

/** A version's own fields, not the agent settings it snapshots. */
const OWN = new Set(['__typename', 'id', 'version', 'publishedAt', 'note']);

const shown = (value: unknown): string => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value, null, 1));

/** The settings that differ between two versions, field by field. */
function differences(from: Version, to: Version): { field: string; from: string; to: string }[] {
  return Object.keys(to)
    .filter((field) => !OWN.has(field))
    .map((field) => ({ field, from: shown(from[field as keyof Version]), to: shown(to[field as keyof Version]) }))
    .filter((d) => d.from !== d.to);
}

/** Two versions side by side: only the fields that differ. */
function VersionDiff({ versions }: { versions: Version[] }) {
  const [fromNumber, setFrom] = useState(versions[1]?.version ?? versions[0].version);
  const [toNumber, setTo] = useState(versions[0].version);
  const from = versions.find((v) => v.version === fromNumber);
  const to = versions.find((v) => v.version === toNumber);
  const rows = from && to ? differences(from, to) : [];
  const picker = (label: string, value: number, set: (n: number) => void) => (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => set(Number(e.target.value))}>
        {versions.map((v) => (
          <option key={v.id} value={v.version}>
            Version {v.version}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section aria-labelledby="version-diff">
      <h3 id="version-diff">Compare versions</h3>
      <div className="row">
        {picker('From', fromNumber, setFrom)}
        {picker('To', toNumber, setTo)}
      </div>
      {rows.length === 0 ? (
        <p role="status">No differences.</p>
      ) : (
        <Table headers={['Field', `Version ${fromNumber}`, `Version ${toNumber}`]} caption="Fields that differ">
          {rows.map((r) => (
            <tr key={r.field} data-field={r.field}>
              <th scope="row">{r.field}</th>
              <td>
                <pre>{r.from}</pre>
              </td>
              <td>
                <pre>{r.to}</pre>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

/**
 * An agent's published versions (docs/agents.md, "Versions"): publish the draft with a note,
 * roll back to an older version (published again under a new number), compare two versions.
 */
export function AgentVersions({ agentId, isTemplate }: { agentId: string; isTemplate: boolean }) {
  const [{ data, error }, refetch] = useQuery({ query: VERSIONS, variables: { id: agentId } });
  const [result, publish] = useMutation(PUBLISH);
  const [published, setPublished] = useState<number | null>(null);
  const errors = fieldErrors(result.error);
  const versions = data?.aiAgent?.versions.edges.map((e) => e.node) ?? [];

  async function run(input: { note?: string; fromVersion?: number }) {
    setPublished(null);
    const res = await publish({ id: agentId, input });
    if (res.data) {
      setPublished(res.data.publishAiAgent.version);
      refetch({ requestPolicy: 'network-only' });
    }
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const note = String(new FormData(form).get('note') ?? '').trim();
    await run(note ? { note } : {});
    form.reset();
  }

  return (
    <section className="card" aria-labelledby="agent-versions">
      <h2 id="agent-versions">Versions</h2>
      <p>Calls run the latest published version unless their campaign or make-call names another; never published, they run the draft.</p>
      <form onSubmit={submit} noValidate>
        <label>
          Note <input name="note" placeholder="What changed" />
        </label>
        <FieldMessage errors={errors} field="note" />
        <button type="submit" disabled={result.fetching || isTemplate}>
          Publish the draft
        </button>
      </form>
      {errors.length === 0 && <Problem error={result.error ?? error} />}
      <FieldMessage errors={errors} field="fromVersion" />
      <p role="status">{published !== null ? `Published version ${published}.` : ''}</p>
      {versions.length === 0 ? (
        <p>Never published.</p>
      ) : (
        <>
          <Table headers={['Version', 'Published', 'Note', '']} caption="Published versions, newest first">
            {versions.map((v, i) => (
              <tr key={v.id}>
                <td>
                  {v.version}
                  {i === 0 ? ' (live)' : ''}
                </td>
                <td>{dateTime(v.publishedAt)}</td>
                <td>{v.note ?? '—'}</td>
                <td>
                  {i > 0 && (
                    <button type="button" disabled={result.fetching} onClick={() => run({ fromVersion: v.version, note: `Roll back to version ${v.version}` })}>
                      Roll back to version {v.version}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
          <VersionDiff versions={versions} key={versions[0].id} />
        </>
      )}
    </section>
  );
}
