import { type FormEvent, useMemo, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { FieldMessage, Problem, Table } from '../components';
import { fieldErrors } from '../errors';
import { dateTime, duration, label } from '../format';
import { graphql } from '../gql';
import type { CallRowFragment, CallStatus } from '../gql/graphql';
import { href, navigate } from '../router';

graphql(`
  fragment CallRow on Call {
    id
    callStatus
    callTo
    callFrom
    callDirection
    createdAt
    callDuration
    workspaceId
    campaignId
    isTest
    campaign {
      id
      name
    }
    aiAgent {
      id
      name
    }
  }
`);

const CALLS = graphql(`
  query Calls($status: CallStatus, $campaignId: ID, $workspace: String, $createdAfter: String) {
    calls(first: 100, status: $status, campaignId: $campaignId, workspace: $workspace, createdAfter: $createdAfter) {
      totalCount
      edges {
        node {
          ...CallRow
        }
      }
    }
    campaigns(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

const CALLS_LIVE = graphql(`
  subscription CallsLive($campaignId: ID, $workspace: String) {
    callStatusChanged(campaignId: $campaignId, workspace: $workspace) {
      ...CallRow
    }
  }
`);

const STATUSES: CallStatus[] = ['PSTN_QUEUED', 'RINGING', 'IN_PROGRESS', 'COMPLETED', 'BUSY', 'NO_ANSWER', 'FAILED', 'CANCELED'];

interface Filters {
  status: CallStatus | '';
  campaignId: string;
  workspace: string;
  /** Calls created on or after this day (YYYY-MM-DD, from local midnight). */
  from: string;
}

/** Local midnight of a `YYYY-MM-DD` day, as the API's instant. */
const startOf = (day: string) => new Date(`${day}T00:00:00`).toISOString();

/** The calls the filters keep: the API filters the list; the subscription knows no status or date, so its news is checked here. */
const keeps = (filters: Filters, call: CallRowFragment) => (!filters.status || call.callStatus === filters.status) && (!filters.from || call.createdAt >= startOf(filters.from));

/** The list of calls, kept up to date by `callStatusChanged`, newest first. */
export function CallsPage() {
  const [filters, setFilters] = useState<Filters>({ status: '', campaignId: '', workspace: '', from: '' });
  const variables = { status: filters.status || null, campaignId: filters.campaignId || null, workspace: filters.workspace || null, createdAfter: filters.from ? startOf(filters.from) : null };
  const [{ data, error }] = useQuery({ query: CALLS, variables });
  const [live] = useSubscription({ query: CALLS_LIVE, variables: { campaignId: variables.campaignId, workspace: variables.workspace } }, (seen: Map<string, CallRowFragment> = new Map(), event) =>
    new Map(seen).set(event.callStatusChanged.id, event.callStatusChanged),
  );
  const calls = useMemo(() => {
    const byId = new Map((data?.calls.edges ?? []).map((e) => [e.node.id, e.node]));
    for (const [id, call] of live.data ?? []) byId.set(id, call);
    return [...byId.values()].filter((c) => keeps(filters, c)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }, [data, live.data, filters]);
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));

  return (
    <>
      <h1>Calls</h1>
      <form className="filters" aria-label="Filter calls" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={filters.status} onChange={(e) => set({ status: e.target.value as CallStatus | '' })}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {label(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Campaign
          <select value={filters.campaignId} onChange={(e) => set({ campaignId: e.target.value })}>
            <option value="">any</option>
            {data?.campaigns.edges.map(({ node }) => (
              <option key={node.id} value={node.id}>
                {node.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Workspace
          <input value={filters.workspace} onChange={(e) => set({ workspace: e.target.value.trim() })} placeholder="any" />
        </label>
        <label>
          Since
          <input type="date" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
        </label>
      </form>
      <Problem error={error} />
      <Table headers={['Created', 'To', 'Status', 'Agent', 'Campaign', 'Duration']}>
        {calls.map((c) => (
          <tr key={c.id}>
            <td>
              <a href={href('calls', c.id)}>{dateTime(c.createdAt)}</a>
            </td>
            <td>{c.callTo}</td>
            <td>
              <span className={`badge s-${c.callStatus}`}>{label(c.callStatus)}</span>
            </td>
            <td>{c.aiAgent.name}</td>
            <td>{c.campaign?.name ?? '—'}</td>
            <td>{duration(c.callDuration)}</td>
          </tr>
        ))}
      </Table>
      {data && calls.length === 0 && <p>No calls match.</p>}
      <TestCallForm />
    </>
  );
}

const TEST_CALL_OPTIONS = graphql(`
  query TestCallOptions {
    aiAgents {
      id
      name
    }
    phoneNumbers {
      id
      phoneNumber
      label
    }
  }
`);

const MAKE_CALL = graphql(`
  mutation MakeCall($input: MakeCallInput!) {
    makeCall(input: $input) {
      id
    }
  }
`);

/** Places a test call and opens its page. */
function TestCallForm() {
  const [{ data }] = useQuery({ query: TEST_CALL_OPTIONS });
  const [result, makeCall] = useMutation(MAKE_CALL);
  const errors = fieldErrors(result.error);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const res = await makeCall({ input: { aiAgentId: String(form.get('agent')), callFrom: String(form.get('from')), callTo: String(form.get('to')) } });
    if (res.data) navigate('calls', res.data.makeCall.id);
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="test-call">
      <h2 id="test-call">Make a test call</h2>
      <label>
        Agent
        <select name="agent" required>
          {data?.aiAgents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <FieldMessage errors={errors} field="aiAgentId" />
      <label>
        From
        <select name="from" required>
          {data?.phoneNumbers.map((n) => (
            <option key={n.id} value={n.phoneNumber}>
              {n.phoneNumber} {n.label}
            </option>
          ))}
        </select>
      </label>
      <FieldMessage errors={errors} field="callFrom" />
      <label>
        To <input name="to" type="tel" required placeholder="+14155552671" />
      </label>
      <FieldMessage errors={errors} field="callTo" />
      <button type="submit" disabled={result.fetching}>
        Call
      </button>
      {errors.length === 0 && <Problem error={result.error} />}
    </form>
  );
}
