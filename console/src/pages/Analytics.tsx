import { type FormEvent, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { LineChart } from '../chart';
import { FieldMessage, Problem, Table } from '../components';
import { fieldErrors } from '../errors';
import { duration, label } from '../format';
import { graphql } from '../gql';
import type { AnalyticsFiguresFragment, CallStatus } from '../gql/graphql';
import { href } from '../router';

graphql(`
  fragment AnalyticsFigures on AnalyticsRow {
    key
    calls
    answered
    answerRate
    averageDurationSeconds
    cost
    latencyMedianMs
    latencyP90Ms
    outcomes {
      outcome
      calls
    }
  }
`);

const ANALYTICS = graphql(`
  query AnalyticsPage($from: String!, $to: String!, $timeZone: String!) {
    byDay: analytics(from: $from, to: $to, groupBy: DAY, timeZone: $timeZone) {
      total {
        ...AnalyticsFigures
      }
      rows {
        ...AnalyticsFigures
      }
    }
    byCampaign: analytics(from: $from, to: $to, groupBy: CAMPAIGN, timeZone: $timeZone) {
      rows {
        ...AnalyticsFigures
      }
    }
    byAgent: analytics(from: $from, to: $to, groupBy: AGENT, timeZone: $timeZone) {
      rows {
        ...AnalyticsFigures
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
    aiAgents {
      id
      name
    }
  }
`);

/** The browser's time zone: days are the user's days. */
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a local date. */
const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Local midnight of `YYYY-MM-DD`. */
const midnight = (day: string) => new Date(`${day}T00:00:00`);

/** Local midnight of the day after `d` (a day is not always 24 hours). */
const nextMidnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);

/** Every local day from `first` to `last`, both included. */
function daysOf(first: string, last: string): string[] {
  const days: string[] = [];
  for (let d = midnight(first); d <= midnight(last); d = nextMidnight(d)) days.push(isoDay(d));
  return days;
}

/** Outcome groups the chart draws, by call status. */
const OUTCOMES: { label: string; color: string; statuses: CallStatus[] }[] = [
  { label: 'completed', color: '#1b7f3b', statuses: ['COMPLETED'] },
  { label: 'busy, no answer or cancelled', color: '#b26b00', statuses: ['BUSY', 'NO_ANSWER', 'CANCELED'] },
  { label: 'failed', color: '#b3261e', statuses: ['FAILED'] },
];

const rate = (r: number) => `${Math.round(r * 100)}%`;
const ms = (v: number | null | undefined) => (v == null ? '—' : `${Math.round(v)} ms`);
const seconds = (v: number | null | undefined) => (v == null ? '—' : duration(Math.round(v)));

/** The figures of one row as table cells, in the order of FIGURE_HEADERS. */
const FIGURE_HEADERS = ['Calls', 'Answered', 'Answer rate', 'Average duration', 'Cost', 'Median latency', 'P90 latency'];
const figures = (r: AnalyticsFiguresFragment) => [r.calls, r.answered, rate(r.answerRate), seconds(r.averageDurationSeconds), r.cost.toFixed(4), ms(r.latencyMedianMs), ms(r.latencyP90Ms)];

/** The figures of each group (a campaign, an agent), named by `name` from the group's key. */
function Breakdown({ what, rows, name }: { what: string; rows: AnalyticsFiguresFragment[]; name(key: string | null | undefined): { text: string; link?: string } }) {
  return (
    <Table caption={`Per ${what.toLowerCase()}`} headers={[what, ...FIGURE_HEADERS]}>
      {rows.map((r) => {
        const { text, link } = name(r.key);
        return (
          <tr key={r.key ?? 'none'}>
            <td>{link ? <a href={link}>{text}</a> : text}</td>
            {figures(r).map((v, i) => (
              <td key={i}>{v}</td>
            ))}
          </tr>
        );
      })}
    </Table>
  );
}

/** The chart's points: one a day of `days` (days without calls at 0), the calls and each outcome group. */
function perDay(rows: AnalyticsFiguresFragment[], days: string[]) {
  const byDay = new Map(rows.map((r) => [r.key, r]));
  const x = days.map((d) => midnight(d).getTime() / 1000);
  const count = (day: string, statuses: CallStatus[]) => (byDay.get(day)?.outcomes ?? []).filter((o) => statuses.includes(o.outcome)).reduce((n, o) => n + o.calls, 0);
  const series = [
    { label: 'calls', color: '#0b57d0', values: days.map((d) => byDay.get(d)?.calls ?? 0) },
    ...OUTCOMES.map((o) => ({ label: o.label, color: o.color, values: days.map((d) => count(d, o.statuses)) })),
  ];
  return { x, series };
}

/**
 * The home page: the calls of a range of days (the last 7 by default, read in the browser's
 * time zone) as the API computes them: totals, calls per day and per outcome, per campaign and
 * per agent, with answer rate, average duration, cost and the agents' latency.
 */
export function AnalyticsPage() {
  const today = isoDay(new Date());
  const [range, setRange] = useState({ first: isoDay(new Date(Date.now() - 6 * DAY_MS)), last: today });
  const variables = useMemo(() => ({ from: midnight(range.first).toISOString(), to: nextMidnight(midnight(range.last)).toISOString(), timeZone: TIME_ZONE }), [range]);
  const [{ data, error, fetching }] = useQuery({ query: ANALYTICS, variables });
  const errors = fieldErrors(error);
  const days = useMemo(() => (range.first <= range.last ? daysOf(range.first, range.last) : []), [range]);
  const chart = useMemo(() => perDay(data?.byDay.rows ?? [], data ? days : []), [data, days]);
  const campaigns = new Map(data?.campaigns.edges.map((e) => [e.node.id, e.node.name]));
  const agents = new Map(data?.aiAgents.map((a) => [a.id, a.name]));
  const total = data?.byDay.total;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setRange({ first: String(form.get('first')), last: String(form.get('last')) });
  }

  return (
    <>
      <h1>Analytics</h1>
      <form className="filters" onSubmit={submit} aria-label="Range">
        <label>
          First day <input type="date" name="first" defaultValue={range.first} max={today} required />
        </label>
        <label>
          Last day <input type="date" name="last" defaultValue={range.last} required />
        </label>
        <button type="submit" disabled={fetching}>
          Show
        </button>
        <p className="hint">Days in {TIME_ZONE}.</p>
      </form>
      <FieldMessage errors={errors} field="to" />
      <FieldMessage errors={errors} field="from" />
      {errors.length === 0 && <Problem error={error} />}
      <section className="card" aria-labelledby="totals">
        <h2 id="totals">{range.first === range.last ? range.first : `${range.first} to ${range.last}`}</h2>
        <dl className="stats" data-testid="totals">
          <div>
            <dt>calls</dt>
            <dd>{total?.calls ?? '…'}</dd>
          </div>
          <div>
            <dt>answer rate</dt>
            <dd>{total ? rate(total.answerRate) : '…'}</dd>
          </div>
          <div>
            <dt>average duration</dt>
            <dd>{total ? seconds(total.averageDurationSeconds) : '…'}</dd>
          </div>
          <div>
            <dt>cost</dt>
            <dd>{total ? total.cost.toFixed(4) : '…'}</dd>
          </div>
          <div>
            <dt>median latency</dt>
            <dd>{total ? ms(total.latencyMedianMs) : '…'}</dd>
          </div>
          <div>
            <dt>p90 latency</dt>
            <dd>{total ? ms(total.latencyP90Ms) : '…'}</dd>
          </div>
        </dl>
      </section>
      <section className="card" aria-labelledby="per-day">
        <h2 id="per-day">Calls per day and outcome</h2>
        <LineChart days x={chart.x} series={chart.series} title="Calls per day, and per outcome" />
      </section>
      {data && (
        <>
          <Table caption="Per outcome" headers={['Outcome', 'Calls']}>
            {data.byDay.total.outcomes.map((o) => (
              <tr key={o.outcome}>
                <td>{label(o.outcome)}</td>
                <td>{o.calls}</td>
              </tr>
            ))}
          </Table>
          <Breakdown what="Campaign" rows={data.byCampaign.rows} name={(key) => (key ? { text: campaigns.get(key) ?? key, link: href('campaigns', key) } : { text: 'no campaign (test calls)' })} />
          <Breakdown what="Agent" rows={data.byAgent.rows} name={(key) => ({ text: (key && agents.get(key)) ?? key ?? '—', link: key ? href('agents', key) : undefined })} />
        </>
      )}
    </>
  );
}
