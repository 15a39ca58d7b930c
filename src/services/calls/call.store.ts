import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { AiAgent, Call, Contact } from '../../entities';
import { type AnsweredBy, type CallDirection, type CallStatus, type DynamicVariable, LIVE_STATUSES } from '../../entities/call.entity';
import { lockUntilCommit } from '../platform/advisory-lock.store';
import { alone, keyedReads, sharedStatement, type StoredView, pageReads, type ViewReads, viewColumns, viewQuery, type Within } from '../../db/statements';
import { type CallStoredView, callStoredView } from './call.contract';
import type { Transitioned, TransitionFields } from './call-transitions';
import type { MakeCallChecks } from './make-call-checks';
import { readableAgentSql, usableAgentSql } from '../agents/agent-ownership';
import { type RelayAgent, relayAgentOf } from '../conversation/agent-settings';
import { agentContract, type AgentSettings, type AgentView } from '../agents/agent.contract';
import { contactContract, type ContactView } from '../contacts/contact.contract';
import { type StoredTurn, transcriptText } from '../conversation/transcript';
import type { RecordKey } from '../shared/scope';
import { NEXT_STEP, type SimulatedCallRecord, type SimulatedLiveStatus } from '../telephony/simulated.telephony';
import type { FlowEventName } from '../../entities/webhook-flow.entity';
import { flowEventsInsertParams, flowEventsInsertSql } from '../flows/flow-outbox.store';
import type { CallRecording } from '../../entities/ai-agent.entity';
import type { RelayAgentSettings } from '../telephony/conversation-relay';
import { type CallPrices, costAssignments, priceRecord, priceRecordFields } from './call-cost';

export interface CallServiceOptions {
  provider: string;
  priceUnit: string;
}

/** The campaign and settings every call of one dialer batch shares. */
export interface CampaignCallBatch {
  companyId: string;
  campaignId: string;
  aiAgentId: string;
  from: string;
  workspace: string;
}

/** One attempt at one contact: at most one call is ever stored for it. */
export interface NewCampaignCall {
  contactId: string;
  attempt: number;
  to: string;
  dynamicVariables: DynamicVariable[];
  /** The agent's version the call runs; null: the draft. */
  aiAgentVersion: number | null;
}

/** A campaign call as stored; `created` false when the attempt had been stored before. */
export interface StoredCampaignCall {
  id: string;
  contactId: string;
  attempt: number;
  created: boolean;
}

/**
 * The calls' hot paths in plain SQL: every transition of every call, campaign calls in
 * batches. Reads and writes for the API stay on the entity. Every function answers typed
 * camelCase values.
 */

/**
 * Takes the company's concurrent-call slots for the transaction open on `em` (two replicas
 * dispatching at once count the same slots).
 */
export const lockCompanyCalls = (em: EntityManager, companyId: string): Promise<void> => lockUntilCommit(em, `calls:${companyId}`);

/** A call given a concurrent-call slot, with what placing it needs. */
export interface CallToPlace {
  id: string;
  from: string;
  to: string;
  agent: RelayAgentSettings;
  /** When it was given its slot: a provider call for it cannot be older. */
  dispatchedAt: Date;
  recording: CallRecording;
}

/**
 * The columns of a call to place and its agent that `callToPlace` reads (`c` the call, `a` its
 * agent), with the settings of the version the call runs (null: the agent's draft).
 */
/** What placing a call reads, of call `c` and its agent `a`; `dispatchedAt`: the expression answered as `dispatched_at`. */
const toPlaceColumns = (dispatchedAt = 'c.dispatched_at') => `c.id, c.call_from, c.call_to, c.call_direction, c.agent_dynamic_variables, ${dispatchedAt} AS dispatched_at,
  a.language, a.interruption_sensitivity, a.call_recording, a.who_talks_first, a.opening_disclosure, a.welcome_greeting, a.agent_dynamic_variables AS agent_variables,
  (SELECT v.settings FROM ai_agent_versions v WHERE v.agent_id = c.ai_agent_id AND v.company_id = c.company_id AND v.version = c.ai_agent_version) AS version_settings`;

/** A row of `toPlaceColumns` (`dispatched_at` as PostgreSQL writes a timestamptz). */
interface ToPlaceRow {
  id: string;
  call_from: string;
  call_to: string;
  call_direction: CallDirection;
  agent_dynamic_variables: DynamicVariable[];
  dispatched_at: string;
  language: RelayAgent['language'];
  interruption_sensitivity: RelayAgent['interruptionSensitivity'];
  call_recording: CallRecording;
  who_talks_first: RelayAgent['whoTalksFirst'];
  opening_disclosure: RelayAgent['openingDisclosure'];
  welcome_greeting: RelayAgent['welcomeGreeting'];
  agent_variables: RelayAgent['agentDynamicVariables'];
  /** The settings of the version the call runs; null: the agent's draft. */
  version_settings: AgentSettings | null;
}

/** The agent settings placing a call reads: its version's, else its agent's draft columns. */
function placingAgentOf(row: ToPlaceRow): RelayAgent & Pick<AgentSettings, 'callRecording'> {
  if (row.version_settings) return row.version_settings;
  return {
    language: row.language,
    interruptionSensitivity: row.interruption_sensitivity,
    whoTalksFirst: row.who_talks_first,
    openingDisclosure: row.opening_disclosure,
    welcomeGreeting: row.welcome_greeting,
    agentDynamicVariables: row.agent_variables,
    callRecording: row.call_recording,
  };
}

const callToPlace = (row: ToPlaceRow): CallToPlace => {
  const agent = placingAgentOf(row);
  return {
    id: row.id,
    dispatchedAt: new Date(row.dispatched_at),
    from: row.call_from,
    to: row.call_to,
    agent: relayAgentOf(agent, {
      callFrom: row.call_from,
      callTo: row.call_to,
      callDirection: row.call_direction,
      agentDynamicVariables: row.agent_dynamic_variables,
    }),
    recording: agent.callRecording,
  };
};

/**
 * The company's calls of one direction holding a concurrent-call slot: dispatched and live.
 * Its parameters: the company, the live statuses, the direction.
 */
const SLOTS_TAKEN = `SELECT count(*)::int AS n FROM calls WHERE company_id = ? AND call_status IN (?) AND dispatched_at IS NOT NULL AND call_direction = ?`;

/**
 * How many concurrent-call slots the company's calls of `direction` hold (`SLOTS_TAKEN`):
 * incoming and outgoing calls have limits of their own. Under `lockCompanyCalls`, a count two
 * replicas agree on.
 */
export async function slotsTaken(em: EntityManager, companyId: string, direction: CallDirection): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(SLOTS_TAKEN, [companyId, [...LIVE_STATUSES], direction]);
  return row.n;
}

/**
 * Gives the company's waiting calls, oldest first, the slots `maxLive` leaves beside its
 * outgoing calls dispatched and live (incoming calls count against their own limit), stamping their `dispatched_at`, in one statement. Run under the
 * company's calls lock (`lockCompanyCalls`), so that two replicas count the same slots.
 */
export async function dispatchWaitingCalls(em: EntityManager, companyId: string, maxLive: number, now: Date): Promise<CallToPlace[]> {
  const rows = await em.execute<ToPlaceRow[]>(
    `WITH live AS (${SLOTS_TAKEN}), picked AS (
       SELECT id FROM calls WHERE company_id = ? AND call_status = 'pstn-queued' AND dispatched_at IS NULL
       ORDER BY created_at, id LIMIT GREATEST(0, ? - (SELECT n FROM live))
     )
     UPDATE calls c SET dispatched_at = ? FROM ai_agents a
     WHERE c.id = ANY (ARRAY (SELECT id FROM picked)) AND c.company_id = ? AND a.id = c.ai_agent_id AND a.company_id = c.company_id
     RETURNING ${toPlaceColumns()}`,
    [companyId, [...LIVE_STATUSES], 'outgoing', companyId, maxLive, now, companyId],
  );
  return rows.map(callToPlace);
}

/**
 * Claims a call dispatched before `strandedBefore` and still not placed (`pstn-queued`, no
 * provider sid), to place it again: moves its `dispatched_at` to `now`, so that any other
 * placing of it (a second job, another replica's sweep) finds it no longer stranded. Row
 * locked, so one of two claims at once wins. Answers what placing it needs, `dispatchedAt`
 * the dispatch before this claim (the provider is asked what it placed since); null when
 * the call is not stranded or another claimed it.
 */
export async function claimStrandedCall(em: EntityManager, call: RecordKey, strandedBefore: Date, now: Date): Promise<CallToPlace | null> {
  const [row] = await em.execute<ToPlaceRow[]>(
    `WITH stranded AS (
       SELECT id, company_id, dispatched_at FROM calls
       WHERE id = ? AND company_id = ? AND call_status = 'pstn-queued' AND call_sid = '' AND dispatched_at < ?
       FOR UPDATE
     )
     UPDATE calls c SET dispatched_at = ? FROM stranded s, ai_agents a
     WHERE c.id = s.id AND c.company_id = s.company_id AND a.id = c.ai_agent_id AND a.company_id = c.company_id
     RETURNING ${toPlaceColumns('s.dispatched_at')}`,
    [call.id, call.companyId, strandedBefore, now],
  );
  return row ? callToPlace(row) : null;
}

/** make-call's row: its checks, and the call it stored (every column null when a check failed). */
type MakeCallRow = MakeCallChecks & (StoredView<CallStoredView> | { [K in keyof StoredView<CallStoredView>]: null });

/** A test call make-call is asked for, as its shared statement reads it (`jsonb_to_recordset`). */
interface MakeCallAsk {
  id: string;
  at: Date;
  agent_id: string;
  version: number | null;
  call_from: string;
  call_to: string;
  workspace: string;
  provider: string;
  price_unit: string;
  vars: DynamicVariable[];
}

const MAKE_CALL = sharedStatement<MakeCallAsk, MakeCallRow>(
  'make-call',
  (reads) => `WITH checks AS (
     SELECT g.*,
       EXISTS (SELECT 1 FROM ai_agents a WHERE a.id = g.agent_id AND ${usableAgentSql('a')}) AS agent,
       (SELECT CASE WHEN g.version IS NULL THEN MAX(v.version) ELSE MAX(v.version) FILTER (WHERE v.version = g.version) END
        FROM ai_agent_versions v WHERE v.agent_id = g.agent_id AND v.company_id = ?::uuid) AS found_version,
       (SELECT phone_number FROM phone_numbers WHERE company_id = ?::uuid AND phone_number = g.call_from) AS from_number,
       EXISTS (SELECT 1 FROM do_not_call_numbers WHERE company_id = ?::uuid AND phone_number = g.call_to) AS suppressed
     FROM jsonb_to_recordset(?::jsonb) AS g(ord int, id uuid, at timestamptz, agent_id uuid, version int, call_from text, call_to text, workspace text, provider text, price_unit text, vars jsonb)
   ), inserted AS (
     INSERT INTO calls (id, created_at, updated_at, company_id, ai_agent_id, ai_agent_version, workspace_id, call_provider, call_from, call_to, is_test, call_direction, price_unit, agent_dynamic_variables)
     SELECT c.id, c.at, c.at, ?::uuid, c.agent_id, c.found_version, c.workspace, c.provider, c.from_number, c.call_to, true, 'outgoing', c.price_unit, c.vars
     FROM checks c WHERE c.agent AND (c.version IS NULL OR c.found_version IS NOT NULL) AND c.from_number IS NOT NULL AND NOT c.suppressed
     RETURNING ${viewColumns(reads, Call, callStoredView)}
   )
   SELECT c.ord, c.agent AS "agentUsable", (c.version IS NULL OR c.found_version IS NOT NULL) AS "versionFound",
     c.from_number IS NOT NULL AS "fromOwned", c.suppressed AS "toSuppressed", inserted.*
   FROM checks c LEFT JOIN inserted ON inserted.id = c.id`,
  // The company's id for each of the text's `?` but the rows'.
  { params: (rows, companyId) => [companyId, companyId, companyId, companyId, rows, companyId] },
);

/** What make-call's statement did: the test call it stored, or, when it stored none, what its checks found. */
export type MadeCall = { call: StoredView<CallStoredView> } | { call: null; checks: MakeCallChecks };

/**
 * make-call in one prepared statement, shared by the company's make-calls in flight together
 * (docs/performance.md, "Shared commits"): each call's checks (the agent is one the company
 * may call with, agents/agent-ownership.ts; it has the version asked for; the number calling
 * from is the company's; the number called is not on its do-not-call list) and, for each
 * whose checks all pass, the test call's INSERT with the version it runs (the one asked for,
 * else the latest published, else null: the draft; docs/agents.md, "Versions"), answered as
 * its stored view. Which check refuses the call is the service's (`makeCallRefusal`). The
 * columns it does not name take the table's defaults, the entity's.
 */
export async function makeCall(
  on: Within,
  reads: ViewReads,
  companyId: string,
  call: { at: Date; agentId: string; version: number | null; from: string; to: string; workspace: string; dynamicVariables: DynamicVariable[] },
  options: CallServiceOptions,
): Promise<MadeCall> {
  const [row] = await MAKE_CALL(on, reads, companyId, {
    id: randomUUID(),
    at: call.at,
    agent_id: call.agentId,
    version: call.version,
    call_from: call.from,
    call_to: call.to,
    workspace: call.workspace,
    provider: options.provider,
    price_unit: options.priceUnit,
    vars: call.dynamicVariables,
  });
  const { agentUsable, versionFound, fromOwned, toSuppressed, ...stored } = row;
  return stored.id === null ? { call: null, checks: { agentUsable, versionFound, fromOwned, toSuppressed } } : { call: stored };
}

/** Stores the providers' sids of the company's calls placed together (`sharedStatement`). */
const STORE_SIDS = sharedStatement<{ id: string; sid: string }, { ord: number }>(
  'call-sids',
  `WITH given AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord int, id uuid, sid text))
   UPDATE calls c SET call_sid = g.sid FROM given g WHERE c.id = g.id AND c.company_id = ?::uuid AND c.call_sid = '' RETURNING g.ord`,
  { distinct: 'id' },
);

/** Stores the provider's sid of a call just placed (a call that has one keeps it). */
export async function storeCallSid(on: Within, reads: ViewReads, call: RecordKey, sid: string): Promise<void> {
  await STORE_SIDS(on, reads, call.companyId, { id: call.id, sid });
}

/** Which of `sids` a call of the company already holds (the calls adopted from the provider are placed from its own numbers). */
export async function sidsInUse(em: EntityManager, companyId: string, sids: string[]): Promise<Set<string>> {
  if (sids.length === 0) return new Set();
  const rows = await em.execute<{ call_sid: string }[]>(`SELECT call_sid FROM calls WHERE company_id = ? AND call_sid IN (?)`, [companyId, sids]);
  return new Set(rows.map((r) => r.call_sid));
}

/**
 * Stores a batch of campaign calls (`is_test` false) in the transaction open on `em`, in
 * one statement. The unique key on (campaign, contact, attempt) makes it idempotent: an
 * attempt stored before is not stored again but answered with its call (`created` false).
 */
export async function insertCampaignCalls(em: EntityManager, batch: CampaignCallBatch, calls: NewCampaignCall[], now: Date, options: CallServiceOptions): Promise<StoredCampaignCall[]> {
  const rows = await em.execute<{ id: string; contact_id: string; campaign_attempt: number; created: boolean }[]>(
    `WITH r AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb) AS r(contact_id uuid, attempt int, call_to text, vars jsonb, version int)
       ), ins AS (
         INSERT INTO calls (id, created_at, updated_at, company_id, ai_agent_id, ai_agent_version, campaign_id, contact_id, campaign_attempt, workspace_id,
                            call_provider, call_from, call_to, is_test, call_direction, price_unit, agent_dynamic_variables)
         SELECT gen_random_uuid(), ?, ?, ?, ?, r.version, ?, r.contact_id, r.attempt, ?, ?, ?, r.call_to, false, 'outgoing', ?, r.vars FROM r
         ON CONFLICT (campaign_id, contact_id, campaign_attempt) DO NOTHING
         RETURNING id, contact_id, campaign_attempt
       )
       SELECT id, contact_id, campaign_attempt, true AS created FROM ins
       UNION ALL
       SELECT k.id, k.contact_id, k.campaign_attempt, false FROM calls k JOIN r ON k.contact_id = r.contact_id AND k.campaign_attempt = r.attempt
       WHERE k.campaign_id = ? AND k.company_id = ?`,
    [
      JSON.stringify(calls.map((c) => ({ contact_id: c.contactId, attempt: c.attempt, call_to: c.to, vars: c.dynamicVariables, version: c.aiAgentVersion }))),
      now,
      now,
      batch.companyId,
      batch.aiAgentId,
      batch.campaignId,
      batch.workspace,
      options.provider,
      batch.from,
      options.priceUnit,
      batch.campaignId,
      batch.companyId,
    ],
  );
  return rows.map((r) => ({ id: r.id, contactId: r.contact_id, attempt: r.campaign_attempt, created: r.created }));
}

/** A transition stored: what it tells the rest of the system, and whether it wrote flow events to deliver. */
export interface StoredTransition extends Transitioned {
  flowEvents: boolean;
}

/** A transition's cost: the rule over the call's duration as the transition sets it (docs/calls.md, "Cost"). */
const TRANSITION_COSTS = costAssignments({ durationS: 't.duration', inputTokens: 'c.llm_input_tokens', outputTokens: 'c.llm_output_tokens', recorded: 'c.recording_sid IS NOT NULL' }, 't');

/** One transition as the statement reads it (`transitionFields`, and the values the update carries). */
interface TransitionRow extends ReturnType<typeof priceRecord> {
  id: string;
  predecessors: readonly CallStatus[];
  status: CallStatus;
  at: Date;
  now: Date;
  started_at: Date | null;
  answered_at: Date | null;
  ended_at: Date | null;
  duration_s: number | null;
  unanswered_duration_s: number | null;
  disconnect_reason: string | null;
  fallback_reason: string | null;
  latency: number | null;
  transcript: string | null;
  transcript_object: { turns: StoredTurn[] } | null;
  transcript_language: string | null;
  contact_status: string;
  answered_by: AnsweredBy | null;
}

/** What the transitions' statement answers for a call it changed. */
interface TransitionAnswer {
  id: string;
  company_id: string;
  campaign_id: string | null;
  workspace_id: string;
  call_status: CallStatus;
  flow_events: boolean;
}

type TransitionStatement = ReturnType<typeof sharedStatement<TransitionRow, TransitionAnswer>>;

/** The transitions' statement, one per flow event it may write (none, `call.started`, `call.ended`): each its own prepared text. */
const TRANSITIONS = new Map<FlowEventName | null, TransitionStatement>();

/**
 * The statement merges each field's sources in the order `TransitionFields` gives them: the
 * first with a value is written (`COALESCE`), the call as stored supplying its start and the
 * reason recorded while it was live. The duration is measured only here, from the stored start.
 */
function transitionStatement(event: FlowEventName | null): TransitionStatement {
  let statement = TRANSITIONS.get(event);
  if (statement) return statement;
  const events = event ? flowEventsInsertSql(event, 'updated', '(SELECT g.at FROM given g WHERE g.id = r.id)') : 'SELECT NULL::uuid AS company_id, NULL::uuid AS subject_id WHERE false';
  statement = sharedStatement<TransitionRow, TransitionAnswer>(
    `call-transitions${event ? `-${event}` : ''}`,
    `WITH given AS (
       SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord int, id uuid, predecessors text[], status text, at timestamptz, now timestamptz,
         started_at timestamptz, answered_at timestamptz, ended_at timestamptz, duration_s int, unanswered_duration_s int, ${priceRecordFields},
         disconnect_reason text, fallback_reason text, latency int, transcript text, transcript_object jsonb, transcript_language text, contact_status text, answered_by text)
     ), timing AS (
       SELECT g.*, COALESCE(g.duration_s, ROUND(GREATEST(0, EXTRACT(EPOCH FROM (g.ended_at - COALESCE(c.started_at, g.answered_at)))))::int, g.unanswered_duration_s, c.call_duration) AS duration
       FROM given g JOIN calls c ON c.id = g.id WHERE c.company_id = ?::uuid AND c.call_status = ANY (g.predecessors)
     ), updated AS (
       UPDATE calls c SET
         call_status = t.status, updated_at = t.now,
         started_at = COALESCE(t.started_at, c.started_at, t.answered_at),
         ended_at = COALESCE(t.ended_at, c.ended_at),
         call_duration = t.duration,
         ${TRANSITION_COSTS},
         disconnect_reason = COALESCE(t.disconnect_reason, NULLIF(c.disconnect_reason, ''), t.fallback_reason, c.disconnect_reason),
         latency = COALESCE(t.latency, c.latency),
         answered_by = COALESCE(t.answered_by, c.answered_by),
         transcript = COALESCE(t.transcript, c.transcript),
         transcript_object = COALESCE(t.transcript_object, c.transcript_object),
         transcript_language = COALESCE(t.transcript_language, c.transcript_language)
       FROM timing t WHERE c.id = t.id AND c.company_id = ?::uuid AND c.call_status = ANY (t.predecessors)
       RETURNING c.*
     ), mirrored AS (
       UPDATE contacts SET last_call_status = g.contact_status, last_call_at = COALESCE(u.started_at, u.created_at), last_call_duration = u.call_duration, updated_at = g.now
       FROM updated u JOIN given g ON g.id = u.id WHERE contacts.id = u.contact_id AND contacts.company_id = u.company_id
     ), evented AS (
       ${events}
     )
     SELECT g.ord, u.id, u.company_id, u.campaign_id, u.workspace_id, u.call_status, EXISTS (SELECT 1 FROM evented e WHERE e.subject_id = u.id) AS flow_events
     FROM updated u JOIN given g ON g.id = u.id`,
    {
      params: (rows, companyId) => [rows, companyId, companyId, ...(event ? [event, ...flowEventsInsertParams(event, companyId)] : [])],
      distinct: 'id',
    },
  );
  TRANSITIONS.set(event, statement);
  return statement;
}

/** What a transition carries besides its decided fields: the provider's and the conversation's values, kept as given. */
export interface TransitionValues {
  latencyMs?: number;
  answeredBy?: AnsweredBy;
  transcript?: { turns: StoredTurn[]; language: string };
}

/**
 * Stores one transition in one statement, shared with the transitions of the company's other
 * calls in flight with it (`sharedStatement`; a call's own transitions go one after the
 * other): the call is updated only if its current status allows the new one (so duplicates
 * and stale updates change nothing, even when two replicas race), its fields are written as
 * the service decided them (`transitionFields`) over the call as stored, its cost restamped,
 * its contact mirrors it, and the flow event it is (`event`: `call.started`, `call.ended`) is
 * written to the outbox for the subscribed flows, with the call as updated, atomically.
 * Returns null when nothing changed. Plain SQL, prepared: this runs for every transition of
 * every call, and the ORM's unit of work would triple its cost.
 */
export async function applyTransition(
  on: Within,
  reads: ViewReads,
  call: RecordKey,
  fields: TransitionFields,
  values: TransitionValues,
  event: FlowEventName | null,
  prices: CallPrices,
  now: Date,
): Promise<StoredTransition | null> {
  const [row] = await transitionStatement(event)(on, reads, call.companyId, {
    id: call.id,
    predecessors: fields.predecessors,
    status: fields.status,
    at: fields.at,
    now,
    started_at: fields.startedAt,
    answered_at: fields.answeredAt,
    ended_at: fields.endedAt,
    duration_s: fields.durationS,
    unanswered_duration_s: fields.unansweredDurationS,
    ...priceRecord(prices),
    disconnect_reason: fields.disconnectReason,
    fallback_reason: fields.fallbackReason,
    latency: values.latencyMs ?? null,
    transcript: values.transcript ? transcriptText(values.transcript.turns) : null,
    transcript_object: values.transcript ? { turns: values.transcript.turns } : null,
    transcript_language: values.transcript?.language ?? null,
    contact_status: fields.contactStatus,
    answered_by: values.answeredBy ?? null,
  });
  return row ? { id: row.id, companyId: row.company_id, campaignId: row.campaign_id, workspace: row.workspace_id, status: row.call_status, flowEvents: row.flow_events } : null;
}

/** A simulated call's row: the call, its agent and its contact (null columns without one). */
interface SimulatedCallRow {
  id: string;
  call_from: string;
  call_to: string;
  call_direction: SimulatedCallRecord['callDirection'];
  call_status: CallStatus;
  agent_dynamic_variables: DynamicVariable[];
  started_at: string | Date | null;
  name: string;
  language: string;
  who_talks_first: SimulatedCallRecord['agent']['whoTalksFirst'];
  welcome_greeting: string | null;
  voicemail_action: SimulatedCallRecord['agent']['voicemailAction'];
  voicemail_message: string;
  agent_variables: SimulatedCallRecord['agent']['agentDynamicVariables'] | null;
  contact_id: string | null;
  firstname: string | null;
  lastname: string | null;
  metadata: Record<string, unknown> | null;
  /** The settings of the version the call runs; null: the agent's draft. */
  version_settings: AgentSettings | null;
}

/** Simulated calls' reads: the company's calls read at once (their steps' timers fire together) share a statement. */
const SIMULATED_CALL = sharedStatement<{ id: string }, SimulatedCallRow>(
  'simulated-call',
  `SELECT g.ord, c.id, c.call_from, c.call_to, c.call_direction, c.call_status, c.agent_dynamic_variables, c.started_at, a.name, a.language, a.who_talks_first, a.welcome_greeting,
            a.voicemail_action, a.voicemail_message, a.agent_dynamic_variables AS agent_variables, c.contact_id, ct.firstname, ct.lastname, ct.metadata,
            (SELECT v.settings FROM ai_agent_versions v WHERE v.agent_id = c.ai_agent_id AND v.company_id = c.company_id AND v.version = c.ai_agent_version) AS version_settings
     FROM jsonb_to_recordset(?::jsonb) AS g(ord int, id uuid) JOIN calls c ON c.id = g.id AND c.company_id = ?::uuid
       JOIN ai_agents a ON a.id = c.ai_agent_id AND a.company_id = c.company_id
       LEFT JOIN contacts ct ON ct.id = c.contact_id AND ct.company_id = c.company_id`,
);

/** A simulated call with what its steps and its conversation need: its agent's settings (the version it runs) and its contact. */
export async function simulatedCall(on: Within, reads: ViewReads, call: RecordKey): Promise<SimulatedCallRecord | null> {
  const [row] = await SIMULATED_CALL(on, reads, call.companyId, { id: call.id });
  if (!row) return null;
  return {
    id: row.id,
    callFrom: row.call_from,
    callTo: row.call_to,
    callDirection: row.call_direction,
    callStatus: row.call_status,
    agentDynamicVariables: row.agent_dynamic_variables,
    // A string or a Date, depending on the driver's type parsing.
    startedAt: row.started_at === null ? null : new Date(row.started_at),
    // The version the call runs, else the agent's draft (docs/agents.md, "Versions").
    agent: row.version_settings ?? {
      name: row.name,
      language: row.language,
      whoTalksFirst: row.who_talks_first,
      welcomeGreeting: row.welcome_greeting,
      voicemailAction: row.voicemail_action,
      voicemailMessage: row.voicemail_message,
      agentDynamicVariables: row.agent_variables ?? {},
    },
    contact: row.contact_id ? { firstname: row.firstname ?? '', lastname: row.lastname ?? '', metadata: row.metadata ?? {} } : null,
  };
}

/**
 * Companies with calls waiting for a dispatch since before `before` (one lost with a crash):
 * a named sweep across companies (docs/scaling.md).
 */
export async function companiesWithUndispatchedCalls(em: EntityManager, before: Date): Promise<string[]> {
  const rows = await em
    .createQueryBuilder(Call)
    .comment('sweep:calls.waiting')
    .select('company', true)
    .where({ callStatus: 'pstn-queued', dispatchedAt: null, createdAt: { $lt: before } })
    .execute('all');
  return rows.map((r) => r.company as unknown as string);
}

/** A live simulated call whose next step is overdue. */
export interface OverdueSimulatedCall extends RecordKey {
  status: SimulatedLiveStatus;
}

/**
 * Live calls of `provider` (the simulated one) last changed before their status's cutoff: their
 * next step's timer was lost with its process. A placed call waits in `pstn-queued` with its
 * sid. A named sweep across companies (docs/scaling.md), at most `limit`.
 */
export async function overdueSimulatedCalls(em: EntityManager, provider: string, cutoffs: Record<SimulatedLiveStatus, Date>, limit: number): Promise<OverdueSimulatedCall[]> {
  const statuses = Object.keys(NEXT_STEP) as SimulatedLiveStatus[];
  const rows = await em.execute<{ id: string; company_id: string; call_status: SimulatedLiveStatus }[]>(
    `/* sweep:calls.simulated */ SELECT id, company_id, call_status FROM calls
     WHERE call_provider = ? AND call_status IN (?) AND (call_status <> 'pstn-queued' OR call_sid <> '')
       AND updated_at < CASE call_status ${statuses.map(() => 'WHEN ? THEN ?::timestamptz').join(' ')} END
     LIMIT ?`,
    [provider, statuses, ...statuses.flatMap((s) => [s, cutoffs[s]]), limit],
  );
  return rows.map((r) => ({ id: r.id, companyId: r.company_id, status: r.call_status }));
}

const byId = viewQuery<CallStoredView>('call-by-id', Call, callStoredView, 'id = $1 AND company_id = $2 AND deleted_at IS NULL LIMIT 1');

/**
 * One call of the company, not soft-deleted, as stored (instants as ISO text), by one
 * prepared statement on the reads' pool: the by-id read of REST and GraphQL.
 */
export async function callById(reads: ViewReads, companyId: string, id: string): Promise<StoredView<CallStoredView> | null> {
  const [found] = await byId(reads, [id, companyId]);
  return found ?? null;
}

/** The reads of subscription events' calls (`callForEvent`): the company's events read together share a statement. */
const FOR_EVENTS = sharedStatement<{ id: string }, StoredView<CallStoredView>>(
  'calls-for-events',
  (reads) => `SELECT g.ord, ${viewColumns(reads, Call, callStoredView, { table: 'c' })}
   FROM jsonb_to_recordset(?::jsonb) AS g(ord int, id uuid) JOIN calls c ON c.id = g.id AND c.company_id = ?::uuid AND c.deleted_at IS NULL`,
);

/**
 * One call of the company, as `callById` reads it, for a subscription event: the events
 * of a company that arrive while its read is in flight (a shared statement's transitions are
 * published together) are read by one statement (`sharedStatement`).
 */
export async function callForEvent(reads: ViewReads, companyId: string, id: string): Promise<StoredView<CallStoredView> | null> {
  const [found] = await FOR_EVENTS(alone, reads, companyId, { id });
  return found ?? null;
}

/** The filters of a page of calls, each optional (`GET /v1/calls`, GraphQL `calls`). */
export interface CallFilters {
  campaignId?: string;
  contactId?: string;
  workspace?: string;
  status?: CallStatus;
  createdAfter?: Date;
  createdBefore?: Date;
}

/** The reads of calls' pages, by their columns (every stored field when absent) and condition. */
const callPages = pageReads<CallStoredView>('calls-page', Call);

function pageQuery(columns: readonly (keyof CallStoredView)[] | undefined, where: string) {
  const view = () => {
    if (!columns) return callStoredView;
    const picked: Partial<Record<keyof CallStoredView, true>> = Object.fromEntries(columns.map((c) => [c, true]));
    return callStoredView.pick(picked);
  };
  return callPages(`${columns?.join(',') ?? '*'} ${where}`, view, where);
}

/**
 * The company's live calls `filters` match, after `after` (a row comparison the indexes on
 * (…, created_at, id) start at): the conditions, `$n`-numbered, and their values; each
 * column qualified with `table` when given (a statement joining other tables).
 */
function callConditions(companyId: string, filters: CallFilters, after?: { createdAt: Date; id: string }, table?: string) {
  const values: unknown[] = [companyId];
  const value = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const c = (column: string) => (table ? `${table}.${column}` : column);
  const conditions = [`${c('company_id')} = $1`, `${c('deleted_at')} IS NULL`];
  if (filters.campaignId !== undefined) conditions.push(`${c('campaign_id')} = ${value(filters.campaignId)}::uuid`);
  if (filters.contactId !== undefined) conditions.push(`${c('contact_id')} = ${value(filters.contactId)}::uuid`);
  if (filters.workspace !== undefined) conditions.push(`${c('workspace_id')} = ${value(filters.workspace)}`);
  if (filters.status !== undefined) conditions.push(`${c('call_status')} = ${value(filters.status)}`);
  if (filters.createdAfter !== undefined) conditions.push(`${c('created_at')} >= ${value(filters.createdAfter)}::timestamptz`);
  if (filters.createdBefore !== undefined) conditions.push(`${c('created_at')} < ${value(filters.createdBefore)}::timestamptz`);
  if (after) conditions.push(`(${c('created_at')}, ${c('id')}) < (${value(after.createdAt)}::timestamptz, ${value(after.id)}::uuid)`);
  return { where: conditions.join(' AND '), values };
}

/**
 * The records a page of calls may read beside each call, in the same statement: its agent
 * (the company's or a template, deleted ones too, as `agentsByIds` reads it) and its contact
 * (the company's, deleted ones too, as `contactsByIds`), each joined on the call's id of it.
 */
const RELATIONS = {
  aiAgent: { entity: AiAgent, view: agentContract.view, on: (t: string) => `${t}.id = calls.ai_agent_id AND ${readableAgentSql(t, '$1')}` },
  contact: { entity: Contact, view: contactContract.view, on: (t: string) => `${t}.id = calls.contact_id AND ${t}.company_id = $1` },
};

/** The fields of the records a page of calls reads beside each call (`RELATIONS`), by relation; `id` is always read. */
export interface CallRelatedFields {
  aiAgent?: readonly (keyof AgentView)[];
  contact?: readonly (keyof ContactView)[];
}

/** What a row of a page holds of each relation it read: the fields asked, null when the call has none (or none the company may read). */
export interface CallRelatedRows {
  aiAgent?: Partial<StoredView<AgentView>> | null;
  contact?: Partial<StoredView<ContactView>> | null;
}

type Relation = keyof CallRelatedFields;

/** The reads of pages with related records, by their columns, relations and condition. */
const relatedPages = keyedReads<Record<string, unknown>>('calls-page-related');

/** The text of a page of calls with the `relations` of each call (LEFT JOINs, each field of a record aliased `<relation>:<field>`). */
function relatedPageText(reads: ViewReads, columns: readonly (keyof CallStoredView)[] | undefined, relations: [Relation, string[]][], condition: string): string {
  const pick = (view: z.ZodObject, keys: readonly string[]): z.ZodObject => view.pick(Object.fromEntries(keys.map((k) => [k, true])) as never);
  const select = [viewColumns(reads, Call, columns ? pick(callStoredView, columns) : callStoredView, { table: 'calls' })];
  const joins: string[] = [];
  for (const [name, fields] of relations) {
    const { entity, view, on } = RELATIONS[name];
    const table = `related_${name}`;
    select.push(viewColumns(reads, entity, pick(view, fields), { table, prefix: `${name}:` }));
    const alias = reads.platform.quoteIdentifier(table);
    joins.push(`LEFT JOIN ${reads.platform.quoteIdentifier(reads.metadata.get(entity.name).tableName)} ${alias} ON ${on(alias)}`);
  }
  return `SELECT ${select.join(', ')} FROM ${reads.platform.quoteIdentifier('calls')} ${joins.join(' ')} WHERE ${condition}`;
}

/** `row`'s record of the relation `name` (its `<name>:<field>` columns), null when the join found none. */
function relatedOf(row: Record<string, unknown>, name: Relation, fields: readonly string[]): Record<string, unknown> | null {
  if (row[`${name}:id`] === null) return null;
  const record: Record<string, unknown> = {};
  for (const field of fields) record[field] = row[`${name}:${field}`];
  return record;
}

/**
 * Up to `limit` calls of the company matching `filters`, not soft-deleted, newest first after
 * `after` (the row a cursor names) or from the newest, as stored views: one prepared statement
 * on the reads' pool per combination of filters (each has the plan of its own indexes), no
 * entity or identity map (docs/performance.md, "Volume"). With `columns`, only those fields
 * are read (a transcript is not read for a page that shows none), one statement per set.
 * With `related`, each call's agent and contact (those fields of them, and their ids) are
 * read in the same statement (`RELATIONS`): one round trip for the page and its records.
 */
export async function callsPage<K extends keyof CallStoredView = keyof CallStoredView>(
  reads: ViewReads,
  companyId: string,
  filters: CallFilters,
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
  columns?: readonly K[],
  related: CallRelatedFields = {},
): Promise<(StoredView<Pick<CallStoredView, K>> & CallRelatedRows)[]> {
  const relations = (Object.entries(related) as [Relation, readonly string[]][]).map(([name, fields]): [Relation, string[]] => [name, [...new Set(['id', ...fields])]]);
  if (relations.length === 0) {
    const { where, values } = callConditions(companyId, filters, after);
    return pageQuery(columns, `${where} ORDER BY created_at DESC, id DESC LIMIT $${values.length + 1}`)(reads, [...values, limit]);
  }
  const { where, values } = callConditions(companyId, filters, after, 'calls');
  const condition = `${where} ORDER BY calls.created_at DESC, calls.id DESC LIMIT $${values.length + 1}`;
  const key = `${columns?.join(',') ?? '*'} ${relations.map(([name, fields]) => `${name}(${fields.join(',')})`).join(' ')} ${condition}`;
  const rows = await relatedPages(key, (r) => relatedPageText(r, columns, relations, condition))(reads, [...values, limit]);
  for (const row of rows) for (const [name, fields] of relations) row[name] = relatedOf(row, name, fields);
  return rows as (StoredView<Pick<CallStoredView, K>> & CallRelatedRows)[];
}

/** How many of the company's live calls `filters` match (GraphQL `totalCount`): exact, one statement on the reads' pool. */
export async function callsCount(reads: ViewReads, companyId: string, filters: CallFilters): Promise<number> {
  const { where, values } = callConditions(companyId, filters);
  const text = `SELECT count(*)::int AS n FROM calls WHERE ${where}`;
  const { rows } = await reads.pool.query<{ n: number }>({ text, values, types: reads.types });
  reads.onStatement?.(text);
  return rows[0].n;
}
