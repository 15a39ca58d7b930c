import { useEffect, useMemo, useRef } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { LineChart } from '../chart';
import { notYet, ProgressBar, Problem } from '../components';
import { dateTime, label } from '../format';
import { graphql } from '../gql';
import type { CampaignPageQuery } from '../gql/graphql';
import { href } from '../router';
import { CampaignSettings } from './CampaignSettings';

const CAMPAIGN = graphql(`
  query CampaignPage($id: ID!) {
    campaign(id: $id) {
      id name status callProgress workspaceId timeZone
      callTimeOfDayFrom callTimeOfDayTo daysOfWeek startedAt endedAt
      numberOfCallAttempts retryDelay retryDelayUnit
      aiAgent { id name }
      stats { contactsSelected settled pickedUp failed inProgress queued skipped skippedReasons nextAttemptAt }
      calls(first: 100) { edges { node { id callStatus callTo createdAt endedAt } } }
    }
  }
`);

const CAMPAIGN_CALLS_LIVE = graphql(`
  subscription CampaignCallsLive($campaignId: ID!) { callStatusChanged(campaignId: $campaignId) { id callStatus } }
`);

const SET_STATUS = graphql(`
  mutation SetCampaignStatus($id: ID!, $status: String!) { updateCampaign(id: $id, input: { status: $status }) { id status } }
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
  const ended = calls.map((e) => e.node).filter((c) => c.endedAt).sort((a, b) => a.endedAt!.localeCompare(b.endedAt!));
  const counts = OUTCOMES.map(() => 0);
  const x: number[] = [];
  const values: number[][] = OUTCOMES.map(() => []);
  for (const call of ended) {
    OUTCOMES.forEach((o, i) => { if (o.statuses.includes(call.callStatus)) counts[i]++; });
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
    pending.current = setTimeout(() => { pending.current = null; refresh(); }, REFRESH_MS);
  }, [live.data, refresh]);
  useEffect(() => () => { if (pending.current) clearTimeout(pending.current); }, []);
}

/** One campaign: live progress, outcomes over time, activate/pause/resume, and its calling window and retries. */
export function CampaignPage({ id }: { id: string }) {
  const [{ data, error }, reexecute] = useQuery({ query: CAMPAIGN, variables: { id } });
  const refresh = useMemo(() => () => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  useLiveRefresh(id, refresh);
  const [statusChange, setStatus] = useMutation(SET_STATUS);
  const campaign = data?.campaign;
  const chart = useMemo(() => outcomesOverTime(campaign?.calls.edges ?? []), [campaign]);
  if (!campaign) return notYet(error, Boolean(data), 'campaign');
  const { stats } = campaign;
  const action = campaign.status === 'active' ? { to: 'paused', text: 'Pause' } : campaign.status === 'paused' ? { to: 'active', text: 'Resume' } : campaign.status === 'completed' ? null : { to: 'active', text: 'Activate' };
  const skippedReasons = Object.entries(stats.skippedReasons);
  return (
    <>
      <p><a href={href('campaigns')}>← Campaigns</a></p>
      <h1>{campaign.name}</h1>
      <section className="card" aria-labelledby="progress">
        <h2 id="progress">Progress <span className="badge" data-testid="campaign-status">{label(campaign.status)}</span></h2>
        <ProgressBar value={campaign.callProgress} label="Campaign progress" />
        <dl className="stats">
          <div><dt>selected</dt><dd>{stats.contactsSelected}</dd></div>
          <div><dt>settled</dt><dd>{stats.settled}</dd></div>
          <div><dt>picked up</dt><dd>{stats.pickedUp}</dd></div>
          <div><dt>failed</dt><dd>{stats.failed}</dd></div>
          <div><dt>in progress</dt><dd>{stats.inProgress}</dd></div>
          <div><dt>queued</dt><dd>{stats.queued}</dd></div>
          <div><dt>skipped</dt><dd>{stats.skipped}{skippedReasons.length > 0 && ` (${skippedReasons.map(([r, n]) => `${label(r)}: ${String(n)}`).join(', ')})`}</dd></div>
          <div><dt>next attempt</dt><dd>{dateTime(stats.nextAttemptAt)}</dd></div>
        </dl>
        {action && <button type="button" onClick={() => setStatus({ id, status: action.to })} disabled={statusChange.fetching}>{action.text}</button>}
        <Problem error={statusChange.error} />
      </section>
      <section className="card" aria-labelledby="outcomes">
        <h2 id="outcomes">Outcomes over time</h2>
        <LineChart x={chart.x} series={chart.series} title="Cumulative call outcomes over time" />
      </section>
      <section className="card" aria-labelledby="campaign-calls">
        <h2 id="campaign-calls">Calls</h2>
        <ul className="plain">
          {campaign.calls.edges.map(({ node: c }) => (
            <li key={c.id}><a href={href('calls', c.id)}>{c.callTo}</a> <span className={`badge s-${c.callStatus}`}>{label(c.callStatus)}</span> {dateTime(c.createdAt)}</li>
          ))}
        </ul>
      </section>
      <CampaignSettings campaign={campaign} />
    </>
  );
}
