import { useQuery, useSubscription } from 'urql';
import { notYet, ProgressBar, Table } from '../components';
import { dateTime, percent } from '../format';
import { graphql } from '../gql';
import type { RunDetailFragment } from '../gql/graphql';
import { href } from '../router';
import { criterionText } from './scenario-draft';
import { RunStatus } from './run-parts';
import { latencyText } from './Transcript';

graphql(`
  fragment RunDetail on AgentTestRun {
    id
    agentId
    version
    replayOf
    status
    passed
    total
    done
    createdAt
    finishedAt
    scenarios {
      scenarioId
      name
      status
      passed
      error
      durationMs
      endReason
      endedBy
      transcript
      criteria {
        criterion
        passed
        reason
      }
      toolCalls {
        name
        arguments
      }
      latencies {
        answersMs
        medianMs
        maxMs
      }
      replay {
        callId
        divergedAt
        turns {
          same
          original {
            role
            text
          }
          replayed {
            role
            text
          }
        }
      }
    }
  }
`);

const RUN = graphql(`
  query TestRunPage($id: ID!) {
    agentTestRun(id: $id) {
      ...RunDetail
    }
  }
`);

const RUN_LIVE = graphql(`
  subscription TestRunLive($id: ID!) {
    agentTestRunUpdated(runId: $id) {
      ...RunDetail
    }
  }
`);

type ScenarioRun = RunDetailFragment['scenarios'][number];
type Replay = NonNullable<ScenarioRun['replay']>;

/** A turn as a run stores it (a call's `transcript_object` turn, snake_case). */
interface StoredTurn {
  role: string;
  text: string;
  latency_ms?: number;
  latency?: { llm_first_token_ms?: number; first_text_ms?: number; voice_to_voice_ms?: number };
}

/** The test call's turns, each agent answer with its latency. */
function Turns({ turns }: { turns: StoredTurn[] }) {
  if (turns.length === 0) return <p>No transcript.</p>;
  return (
    <ol className="transcript">
      {turns.map((t, i) => {
        const latency = latencyText({
          role: t.role,
          text: t.text,
          latencyMs: t.latency_ms,
          latency: t.latency && { llmFirstTokenMs: t.latency.llm_first_token_ms, firstTextMs: t.latency.first_text_ms, voiceToVoiceMs: t.latency.voice_to_voice_ms },
        });
        return (
          <li key={i} className={`turn turn-${t.role}`}>
            <span className="who">{t.role}</span> {t.text}
            {latency && <small className="latency">{latency}</small>}
          </li>
        );
      })}
    </ol>
  );
}

const side = (s: Replay['turns'][number]['original']) =>
  s ? (
    <>
      <span className="who">{s.role}</span> {s.text}
    </>
  ) : (
    <span className="hint">(past its end)</span>
  );

/** Both transcripts of a replay, turn by turn, the first turn that differs marked. */
function ReplayComparison({ replay }: { replay: Replay }) {
  return (
    <>
      <p data-testid="diverged">
        {replay.divergedAt == null ? 'The replay said the same as the call at every turn.' : `The replay parts from the call at turn ${replay.divergedAt + 1}.`}{' '}
        <a href={href('calls', replay.callId)}>The original call</a>
      </p>
      <Table headers={['Turn', 'The call', 'The replay', '']} caption="Both transcripts, turn by turn">
        {replay.turns.map((t, i) => (
          <tr key={i} className={`replay-turn${t.same ? '' : ' differs'}`} aria-current={i === replay.divergedAt ? 'step' : undefined}>
            <td>{i + 1}</td>
            <td className="wrap">{side(t.original)}</td>
            <td className="wrap">{side(t.replayed)}</td>
            <td>{t.same ? 'same' : i === replay.divergedAt ? 'diverges here' : 'differs'}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

/** One scenario of the run: its status, each criterion with its reason, tools, latencies, the transcript. */
function Scenario({ s, n }: { s: ScenarioRun; n: number }) {
  const id = `scenario-${n}`;
  const latencies = s.latencies.answersMs.length > 0 ? s.latencies : null;
  return (
    <section className="card" aria-labelledby={id} data-testid="scenario-run">
      <h2 id={id}>
        {s.name} <RunStatus status={s.status} />
      </h2>
      {s.error && <p className="error">{s.error}</p>}
      {s.status !== 'pending' && (
        <p className="hint">
          Ended by {s.endedBy ?? '—'} ({s.endReason ?? '—'}){s.durationMs != null && ` · ${(s.durationMs / 1000).toFixed(1)} s`}
          {latencies && ` · answers ${latencies.answersMs.join(', ')} ms (median ${latencies.medianMs} ms, slowest ${latencies.maxMs} ms)`}
        </p>
      )}
      {s.criteria.length > 0 && (
        <Table headers={['Criterion', 'Result', 'Why']} caption="Criteria">
          {s.criteria.map((c, i) => (
            <tr key={i} data-testid="criterion" className={c.passed ? '' : 'differs'}>
              <td className="wrap">{criterionText(c.criterion)}</td>
              <td>
                <RunStatus status={c.passed ? 'passed' : 'failed'} />
              </td>
              <td className="wrap">{c.reason}</td>
            </tr>
          ))}
        </Table>
      )}
      {s.toolCalls.length > 0 && (
        <p>
          Tools called:{' '}
          {s.toolCalls.map((t, i) => (
            <code key={i} className="tool-call">
              {t.name}({JSON.stringify(t.arguments)})
            </code>
          ))}
        </p>
      )}
      {s.replay && <ReplayComparison replay={s.replay} />}
      {s.status !== 'pending' && (
        <details open={!s.passed && !s.replay}>
          <summary>Transcript ({s.transcript.length} turns)</summary>
          <Turns turns={s.transcript as unknown as StoredTurn[]} />
        </details>
      )}
    </section>
  );
}

/** How far a run's state is: finished last, else by scenarios done, a started run past a queued one. */
const progress = (r: RunDetailFragment) => (r.finishedAt ? Infinity : r.done * 2 + (r.status === 'queued' ? 0 : 1));

/** A test run or a replay: its progress live, then each scenario's grades, transcript and latencies. */
export function TestRunPage({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: RUN, variables: { id } });
  const [live] = useSubscription({ query: RUN_LIVE, variables: { id } });
  const read = data?.agentTestRun;
  const pushed = live.data?.agentTestRunUpdated;
  // The page's read and the news pushed since: whichever is further (news sent before the
  // subscription started is not pushed again).
  const run = read && pushed && progress(read) > progress(pushed) ? read : (pushed ?? read);
  if (!run) return notYet(error, Boolean(data), 'test run');
  const title = run.replayOf ? 'Replay of a call' : 'Test run';
  return (
    <>
      <p>
        <a href={href('agents', run.agentId)}>← The agent</a>
      </p>
      <h1>
        {title} <RunStatus status={run.status} />
      </h1>
      <section className="card" aria-labelledby="run-progress">
        <h2 id="run-progress">Progress</h2>
        <ProgressBar value={percent(run.done, run.total)} label="Scenarios run" />
        <p role="status" data-testid="run-summary">
          {run.done} of {run.total} scenarios run
          {run.passed != null && `: ${run.scenarios.filter((s) => s.passed).length} passed, ${run.scenarios.filter((s) => s.passed === false).length} did not`}
        </p>
        <dl className="facts">
          <dt>Version</dt>
          <dd>{run.version ?? 'the draft'}</dd>
          <dt>Asked for</dt>
          <dd>{dateTime(run.createdAt)}</dd>
          <dt>Finished</dt>
          <dd>{dateTime(run.finishedAt)}</dd>
        </dl>
      </section>
      {run.scenarios.map((s, i) => (
        <Scenario key={i} s={s} n={i} />
      ))}
    </>
  );
}
