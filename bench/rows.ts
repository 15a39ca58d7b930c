import type { CallFigures } from './calls';
import type { CampaignFigures } from './campaigns';
import type { FlowFigures } from './flows';
import { percentile, type Row } from './report';

/** One target's figures over the rounds of a read comparison (or one load run). */
export interface Figures {
  reqPerS: number;
  meanMs: number;
  p99Ms: number;
  cpuMsPerReq: number;
  requests: number;
  failed: number;
}

export const fixed = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `fixed` with its sign always written: +36, -152. */
export const signed = (n: number) => (n < 0 ? fixed(n) : `+${fixed(n)}`);
const http = (x: Figures) => `${fixed(x.reqPerS)} req/s, p99 ${x.p99Ms} ms`;

/** The rows of the reads phase: by-id and the list against the bare server, the GraphQL list against the REST list. */
export function readRows(reads: Map<string, Figures>, campaigns: number): Row[] {
  const f = (name: string) => reads.get(name)!;
  const byIdShare = f('service by-id').reqPerS / f('bare by-id').reqPerS;
  const listShare = f('service REST list').reqPerS / f('bare list').reqPerS;
  const rest = f('service REST list');
  const gql = f('service GraphQL list');
  const ratio = gql.meanMs / rest.meanMs;
  return [
    {
      figure: 'GET /v1/campaigns/by-id/{id}',
      measured: `${http(f('service by-id'))} (${fixed(100 * byIdShare)}% of bare)`,
      anchor: `bare node:http + pg: ${http(f('bare by-id'))}`,
      aim: { text: '>= 70% of bare req/s', met: byIdShare >= 0.7 },
    },
    {
      figure: `GET /v1/campaigns/list (${campaigns})`,
      measured: `${http(rest)} (${fixed(100 * listShare)}% of bare)`,
      anchor: `bare node:http + pg: ${http(f('bare list'))}`,
    },
    {
      figure: `GraphQL campaigns(first: ${campaigns}), same fields`,
      measured: `${gql.meanMs.toFixed(1)} ms/req (${ratio.toFixed(2)}x REST), ${http(gql)}, CPU ${gql.cpuMsPerReq.toFixed(2)} ms/req`,
      anchor: `REST list: ${rest.meanMs.toFixed(1)} ms/req, CPU ${rest.cpuMsPerReq.toFixed(2)} ms/req (${(gql.cpuMsPerReq / rest.cpuMsPerReq).toFixed(2)}x)`,
      aim: { text: '<= 1.5x REST time per request', met: ratio <= 1.5 },
    },
  ];
}

export function makeCallRow(calls: Figures, bare: Figures, drained: { calls: number; seconds: number }): Row {
  return {
    figure: 'POST /v1/calls/make-call',
    measured: `${http(calls)}, CPU ${calls.cpuMsPerReq.toFixed(2)} ms/req (${(100 * (calls.reqPerS / bare.reqPerS)).toFixed(1)}% of the insert)`,
    anchor: `bare node:http + pg INSERT … RETURNING: ${http(bare)}; all ${fixed(drained.calls)} calls ended ${drained.seconds.toFixed(1)} s after the load`,
    aim: { text: '>= 500 req/s', met: calls.reqPerS >= 500 },
  };
}

/** `cpuMs`: the service's CPU time over the phase, its calls' lifecycles included. */
export function subscribersRow(events: { delays: number[]; events: number; errors: number; cpuMs: number }, subscribers: number, callsPerS: number, seconds: number): Row {
  const delays = [...events.delays].sort((a, b) => a - b);
  const p99 = percentile(delays, 99);
  const expected = events.events * subscribers;
  return {
    figure: `transition -> ${fixed(subscribers)} graphql-transport-ws subscribers`,
    measured: `p99 ${p99} ms, p50 ${percentile(delays, 50)} ms, max ${delays.at(-1)} ms; service CPU ${((1000 * events.cpuMs) / Math.max(1, delays.length)).toFixed(1)} µs/delivery`,
    anchor: `${fixed(events.events)} events (${callsPerS} calls/s for ${seconds} s: ${fixed(events.events / seconds)} events/s); ${fixed(delays.length)} of ${fixed(expected)} deliveries${events.errors ? `, ${events.errors} errors` : ''}`,
    aim: { text: 'p99 < 100 ms at 64 events/s, every delivery', met: p99 < 100 && events.events / seconds >= 64 && delays.length === expected && events.errors === 0 },
  };
}

export function rssRow(rss: { service: number; baseline: number }): Row {
  return { figure: 'peak RSS of the service process', measured: `${fixed(rss.service)} MiB`, anchor: `bare baseline process: ${fixed(rss.baseline)} MiB` };
}

/** `bareInsert`: the make-call phase's bare insert, when it ran: the machine's pace of placing a call alone. */
export function callsRow(e2e: CallFigures, bareInsert?: Figures): Row {
  const p99 = percentile(e2e.delays, 99);
  const ofInsert = bareInsert ? ` (${(100 * (e2e.callsPerS / bareInsert.reqPerS)).toFixed(1)}% of the bare insert)` : '';
  return {
    figure: `calls end to end (${fixed(e2e.calls)} calls, zero timings)`,
    measured: `${fixed(e2e.callsPerS)} calls/s${ofInsert}; ${fixed(e2e.delays.length)} of ${fixed(e2e.transitions)} transitions delivered (the last state of ${fixed(e2e.lastStates)} of ${fixed(e2e.completed)} calls), p99 ${p99} ms`,
    anchor: `make-calls accepted: ${fixed(e2e.makeCallsPerS)}/s${e2e.failed ? `, ${e2e.failed} failed` : ''}${bareInsert ? `; bare insert (make-call row): ${fixed(bareInsert.reqPerS)} req/s` : ''}`,
    aim: { text: '>= 300 calls/s, every transition, p99 < 250 ms', met: e2e.callsPerS >= 300 && e2e.delays.length >= e2e.transitions && p99 < 250 },
  };
}

/** The campaign dialer's aim (contacts a second, zero-length calls, 200 live): bench:campaigns', and the activation's of bench:volume. */
export const DIALER_AIM_PER_S = 500;

export function dialerRow(campaign: CampaignFigures): Row {
  return {
    figure: `campaign dialer (${fixed(campaign.contacts)} contacts)`,
    measured: `${fixed(campaign.contactsPerS)} contacts/s (${fixed(campaign.settled)} settled, ${campaign.status})`,
    anchor: `PostgreSQL ${fixed((100 * campaign.dbMs) / (campaign.dbMs + campaign.cpuMs))}% of service CPU + database active time`,
    aim: { text: `>= ${DIALER_AIM_PER_S} contacts/s`, met: campaign.contactsPerS >= DIALER_AIM_PER_S },
  };
}

export function flowsRow(flows: FlowFigures): Row {
  const p99 = percentile(flows.latencies, 99);
  return {
    figure: `flows (${fixed(flows.executions)} single-step executions)`,
    measured: `${fixed(flows.executionsPerS)} executions/s, p99 trigger to delivery ${p99.toFixed(0)} ms`,
    anchor: `triggers accepted: ${fixed(flows.triggersPerS)}/s`,
    aim: { text: '>= 1,000/s, p99 < 100 ms', met: flows.executionsPerS >= 1000 && p99 < 100 },
  };
}
