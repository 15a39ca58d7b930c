import { useMutation, useQuery, useSubscription } from 'urql';
import { notYet, Problem } from '../components';
import { dateTime, duration, label, money, TERMINAL_CALL_STATUSES } from '../format';
import { graphql } from '../gql';
import type { CallDetailFragment } from '../gql/graphql';
import { href } from '../router';
import { RecordingPlayer } from './Recording';
import { ReplayCall } from './ReplayCall';
import { Transcript } from './Transcript';

graphql(`
  fragment CallDetail on Call {
    id
    callStatus
    callTo
    callFrom
    callDirection
    callProvider
    isTest
    workspaceId
    createdAt
    startedAt
    endedAt
    retryAt
    updatedAt
    callDuration
    cost
    priceUnit
    answeredBy
    recordUrl
    disconnectReason
    analysisSentiment
    agentTaskStatus
    agentTaskFeedback
    agentPostCallOutcomes
    agentDynamicVariables {
      name
      value
    }
    transcriptTurns {
      role
      text
      at
      latencyMs
      latency {
        llmFirstTokenMs
        firstTextMs
        voiceToVoiceMs
      }
    }
    costBreakdown {
      telephony
      llm
      recording
      total
    }
    transfer {
      to
      mode
      status
      startedAt
    }
    aiAgent {
      id
      name
    }
    campaign {
      id
      name
    }
    contact {
      id
      firstname
      lastname
    }
  }
`);

const CALL = graphql(`
  query CallPage($id: ID!) {
    call(id: $id) {
      ...CallDetail
    }
  }
`);

const CALL_LIVE = graphql(`
  subscription CallLive($id: ID!) {
    callStatusChanged(callId: $id) {
      ...CallDetail
    }
  }
`);

const CANCEL = graphql(`
  mutation CancelCall($id: ID!) {
    cancelCall(id: $id) {
      ...CallDetail
    }
  }
`);

/** The status steps a call went through, from its timestamps (a transfer between the answer and the end). */
function timeline(call: CallDetailFragment): { step: string; at: string | null }[] {
  const steps = [{ step: 'queued', at: call.createdAt as string | null }];
  if (call.startedAt) steps.push({ step: 'answered', at: call.startedAt });
  const { transfer } = call;
  if (transfer) steps.push({ step: `${label(transfer.mode)} transfer to ${transfer.to}: ${label(transfer.status)}`, at: transfer.startedAt });
  if (call.endedAt) steps.push({ step: label(call.callStatus), at: call.endedAt });
  else if (call.callStatus !== 'PSTN_QUEUED') steps.push({ step: `${label(call.callStatus)} (now)`, at: call.updatedAt });
  if (call.retryAt) steps.push({ step: 'retry planned', at: call.retryAt });
  return steps;
}

/** The cost with its unit, and its parts. */
function Cost({ call }: { call: CallDetailFragment }) {
  const parts = call.costBreakdown;
  const part = (amount: number) => amount.toFixed(4);
  return (
    <>
      {money(call.cost, call.priceUnit)}
      {parts && (
        <small className="cost-parts">
          {' '}
          (telephony {part(parts.telephony)}, model {part(parts.llm)}, recording {part(parts.recording)})
        </small>
      )}
    </>
  );
}

/** One call: its status timeline, who answered, the recording, the transcript as it grows, outcomes and cost; live while it lasts. */
export function CallPage({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: CALL, variables: { id } });
  const [live] = useSubscription({ query: CALL_LIVE, variables: { id } });
  const [cancelled, cancel] = useMutation(CANCEL);
  const call = cancelled.data?.cancelCall ?? live.data?.callStatusChanged ?? data?.call;
  if (!call) return notYet(error, Boolean(data), 'call');
  const ended = TERMINAL_CALL_STATUSES.includes(call.callStatus);
  const outcomes = Object.entries(call.agentPostCallOutcomes ?? {});
  return (
    <>
      <p>
        <a href={href('calls')}>← Calls</a>
      </p>
      <h1>Call to {call.callTo}</h1>
      <div className="grid">
        <section className="card" aria-labelledby="call-facts">
          <h2 id="call-facts">Details</h2>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <span className={`badge s-${call.callStatus}`} data-testid="call-status">
                {label(call.callStatus)}
              </span>
            </dd>
            <dt>From</dt>
            <dd>{call.callFrom}</dd>
            <dt>Direction</dt>
            <dd>
              {label(call.callDirection)}
              {call.isTest ? ' (test)' : ''}
            </dd>
            <dt>Agent</dt>
            <dd>
              <a href={href('agents', call.aiAgent.id)}>{call.aiAgent.name}</a>
            </dd>
            <dt>Campaign</dt>
            <dd>{call.campaign ? <a href={href('campaigns', call.campaign.id)}>{call.campaign.name}</a> : '—'}</dd>
            <dt>Contact</dt>
            <dd>{call.contact ? `${call.contact.firstname} ${call.contact.lastname}` : '—'}</dd>
            <dt>Answered by</dt>
            <dd data-testid="answered-by">{label(call.answeredBy)}</dd>
            <dt>Duration</dt>
            <dd>{duration(call.callDuration)}</dd>
            <dt>Cost</dt>
            <dd>
              <Cost call={call} />
            </dd>
            <dt>Ended because</dt>
            <dd>{call.disconnectReason || '—'}</dd>
            <dt>Sentiment</dt>
            <dd>{call.analysisSentiment || '—'}</dd>
            <dt>Task</dt>
            <dd>
              {call.agentTaskStatus || '—'} {call.agentTaskFeedback}
            </dd>
          </dl>
          {!ended && (
            <button type="button" onClick={() => cancel({ id })} disabled={cancelled.fetching}>
              Cancel call
            </button>
          )}
          <Problem error={cancelled.error} />
        </section>
        <section className="card" aria-labelledby="call-timeline">
          <h2 id="call-timeline">Timeline</h2>
          <ol className="timeline">
            {timeline(call).map((s) => (
              <li key={s.step}>
                <strong>{s.step}</strong> <time dateTime={s.at ?? undefined}>{dateTime(s.at)}</time>
              </li>
            ))}
          </ol>
          <h2>Outcomes</h2>
          {outcomes.length === 0 ? (
            <p>{ended ? 'None recorded.' : 'After the call ends.'}</p>
          ) : (
            <dl className="facts">
              {outcomes.map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      </div>
      {call.recordUrl && (
        <section className="card" aria-labelledby="call-recording">
          <h2 id="call-recording">Recording</h2>
          <RecordingPlayer callId={call.id} />
        </section>
      )}
      <Transcript turns={call.transcriptTurns} ended={ended} />
      {ended && <ReplayCall callId={call.id} />}
    </>
  );
}
