import { useEffect, useMemo, useRef } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { LineChart } from '../chart';
import { DeleteCard, notYet, ProgressBar, Problem, StatusButton } from '../components';
import { dateTime, label } from '../format';
import { graphql } from '../gql';
import type { CampaignPageQuery } from '../gql/graphql';
import { href, navigate } from '../router';
import { AudienceSummary, everyoneWarning } from './Audience';
import { CampaignSettings } from './CampaignSettings';

const CAMPAIGN = graphql(`
  query CampaignPage($id: ID!) {
    campaign(id: $id) {
      id
      name
      status
      callProgress
      workspaceId
      timeZone
      callTimeOfDayFrom
      callTimeOfDayTo
      daysOfWeek
      startedAt
      endedAt
      numberOfCallAttempts
      retryDelay
      retryDelayUnit
      contactsListTags
      contactsListCategories
      contactsListSource
      aiAgent {
        id
        name
      }
      stats {
        contactsSelected
        settled
        pickedUp
        failed
        inProgress
        queued
        skipped
        skippedReasons
        nextAttemptAt
      }
      calls(first: 100) {
        edges {
          node {
            id
            callStatus
            callTo
            createdAt
            endedAt
          }
        }
      }
    }
  }
`);

/**
 * The audience is read on its own: when the page opens, and again after each change of the
 * campaign (urql's document cache re-reads the queries of a type a mutation answers), not
 * with each live refresh of the stats.
 */
const AUDIENCE = graphql(`
  query CampaignAudience($id: ID!) {
    campaign(id: $id) {
      id
      audience(limit: 10) {
        ...AudienceFields
      }
    }
  }
`);

const DELETE = graphql(`
  mutation DeleteCampaign($id: ID!) {
    deleteCampaign(id: $id)
  }
`);

const CAMPAIGN_CALLS_LIVE = graphql(`
  subscription CampaignCallsLive($campaignId: ID!) {
    callStatusChanged(campaignId: $campaignId) {
      id
      callStatus
    }
  }
`);

const SET_STATUS = graphql(`
  mutation SetCampaignStatus($id: ID!, $status: String!) {
    updateCampaign(id: $id, input: { status: $status }) {
      id
      status
    }
  }
`);

/** How often, at most, live news re-reads the campaign's stats. */
const REFRESH_MS = 500;

type Calls = NonNullable<CampaignPageQuery['campaign']>['calls']['edges'];

const OUTCOMES = [
  { label: 'answered', color: '#1b7f3b', statuses: ['COMPLETED'] },
  { label: 'busy or no answer', color: '#b26b00', statuses: ['BUSY', 'NO_ANSWER', 'CANCELED'] },
  { label: 'failed', color: '#b3261e', statuses: ['FAILED'] },
];

/** Cumulative outcomes of the campaign's ended calls, one point per ended call. */
function outcomesOverTime(calls: Calls) {
  const ended = calls
    .map((e) => e.node)
    .filter((c) => c.endedAt)
    .sort((a, b) => a.endedAt!.localeCompare(b.endedAt!));
  const counts = OUTCOMES.map(() => 0);
  const x: number[] = [];
  const values: number[][] = OUTCOMES.map(() => []);
  for (const call of ended) {
    OUTCOMES.forEach((o, i) => {
      if (o.statuses.includes(call.callStatus)) counts[i]++;
    });
    x.push(Date.parse(call.endedAt!) / 1000);
    counts.forEach((n, i) => values[i].push(n));
  }
  return { x, series: OUTCOMES.map((o, i) => ({ label: o.label, color: o.color, values: values[i] })) };
}

/** Re-reads the campaign (stats, calls) when one of its calls changes, at most every REFRESH_MS. */
function useLiveRefresh(id: string, refresh: () => void) {
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [live] = useSubscription({ query: CAMPAIGN_CALLS_LIVE, variables: { campaignId: id } }, (n: number = 0) => n + 1);
  useEffect(() => {
    if (!live.data || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      refresh();
    }, REFRESH_MS);
  }, [live.data, refresh]);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
}

/** One campaign: live progress, outcomes over time, activate/pause/resume, and its calling window and retries. */
export function CampaignPage({ id }: { id: string }) {
  const [{ data, error }, reexecute] = useQuery({ query: CAMPAIGN, variables: { id } });
  const refresh = useMemo(() => () => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  useLiveRefresh(id, refresh);
  const [statusChange, setStatus] = useMutation(SET_STATUS);
  const [audienceRead] = useQuery({ query: AUDIENCE, variables: { id } });
  const audience = audienceRead.data?.campaign?.audience;
  const campaign = data?.campaign;
  const chart = useMemo(() => outcomesOverTime(campaign?.calls.edges ?? []), [campaign]);
  if (!campaign) return notYet(error, Boolean(data), 'campaign');
  const { stats } = campaign;
  const action =
    campaign.status === 'active'
      ? { to: 'paused', text: 'Pause' }
      : campaign.status === 'paused'
        ? { to: 'active', text: 'Resume' }
        : campaign.status === 'completed'
          ? null
          : { to: 'active', text: 'Activate' };
  const skippedReasons = Object.entries(stats.skippedReasons);
  const why = skippedReasons.map(([r, n]) => `${label(r)}: ${String(n)}`).join(', ');
  return (
    <>
      <p>
        <a href={href('campaigns')}>← Campaigns</a>
      </p>
      <h1>{campaign.name}</h1>
      <section className="card" aria-labelledby="progress">
        <h2 id="progress">
          Progress{' '}
          <span className="badge" data-testid="campaign-status">
            {label(campaign.status)}
          </span>
        </h2>
        <ProgressBar value={campaign.callProgress} label="Campaign progress" />
        <dl className="stats">
          <div>
            <dt>selected</dt>
            <dd>{stats.contactsSelected}</dd>
          </div>
          <div>
            <dt>settled</dt>
            <dd>{stats.settled}</dd>
          </div>
          <div>
            <dt>picked up</dt>
            <dd>{stats.pickedUp}</dd>
          </div>
          <div>
            <dt>failed</dt>
            <dd>{stats.failed}</dd>
          </div>
          <div>
            <dt>in progress</dt>
            <dd>{stats.inProgress}</dd>
          </div>
          <div>
            <dt>queued</dt>
            <dd>{stats.queued}</dd>
          </div>
          <div>
            <dt>skipped</dt>
            <dd>
              {stats.skipped}
              {skippedReasons.length > 0 && <small title={why}> ({why})</small>}
            </dd>
          </div>
          <div>
            <dt>next attempt</dt>
            <dd title={dateTime(stats.nextAttemptAt)}>{dateTime(stats.nextAttemptAt)}</dd>
          </div>
        </dl>
        {action && (
          <StatusButton
            text={action.text}
            busy={statusChange.fetching}
            // Activating (from a draft) a selection of every contact asks first; resuming a paused campaign does not.
            confirm={action.text === 'Activate' ? everyoneWarning(campaign, audience) : null}
            onGo={() => setStatus({ id, status: action.to })}
          />
        )}
        <Problem error={statusChange.error} />
      </section>
      <section className="card" aria-labelledby="audience">
        <h2 id="audience">Who it calls</h2>
        <Problem error={audienceRead.error} />
        {audience ? <AudienceSummary audience={audience} selection={campaign} /> : <p aria-busy="true">Counting…</p>}
      </section>
      <section className="card" aria-labelledby="outcomes">
        <h2 id="outcomes">Outcomes over time</h2>
        <LineChart x={chart.x} series={chart.series} title="Cumulative call outcomes over time" />
      </section>
      <section className="card" aria-labelledby="campaign-calls">
        <h2 id="campaign-calls">Calls</h2>
        <ul className="plain">
          {campaign.calls.edges.map(({ node: c }) => (
            <li key={c.id}>
              <a href={href('calls', c.id)}>{c.callTo}</a> <span className={`badge s-${c.callStatus}`}>{label(c.callStatus)}</span> {dateTime(c.createdAt)}
            </li>
          ))}
        </ul>
      </section>
      <CampaignSettings campaign={campaign} />
      <DeleteCampaign id={id} name={campaign.name} />
    </>
  );
}

/** Deletes the campaign, then shows the list. */
function DeleteCampaign({ id, name }: { id: string; name: string }) {
  const [result, remove] = useMutation(DELETE);
  const onDelete = () => void remove({ id }).then((res) => res.error || navigate('campaigns'));
  return <DeleteCard what="campaign" question={`Delete ${name}? Its calls are kept; it calls nobody more.`} busy={result.fetching} error={result.error} onDelete={onDelete} />;
}
