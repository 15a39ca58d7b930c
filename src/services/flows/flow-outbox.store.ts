import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlowEventName } from '../../entities/webhook-flow.entity';
import type { RecordKey } from '../shared/scope';
import { FLOW_EVENTS_TABLE } from '../../db/tables';

/** The record an event is about, and the columns its filters read. */
const SUBJECTS = {
  call: { table: 'calls', workspace: 'workspace_id', agent: 'ai_agent_id', campaign: 'campaign_id' },
  campaign: { table: 'campaigns', workspace: 'workspace', agent: 'ai_agent_id', campaign: 'id' },
} as const;

export type SubjectKind = keyof typeof SUBJECTS;

/** What record each event is about. */
export const SUBJECT_OF: Record<FlowEventName, SubjectKind> = {
  'call.started': 'call',
  'call.ended': 'call',
  'call.analyzed': 'call',
  'campaign.completed': 'campaign',
};

/** One event of one record for one flow, not yet delivered. */
export interface PendingEvent {
  id: string;
  flowId: string;
  event: FlowEventName;
  occurredAt: Date;
  /** The record's row as it was when the event happened (`to_jsonb` of it). */
  record: Record<string, unknown>;
}

/**
 * The statement (SQL and its parameters, in order) writing one outbox row per flow of the
 * company subscribed to `event` whose filters match the record, for each row of `records`:
 * the subject's table filtered to the record, or a CTE of the statement it joins holding the
 * record as that statement updated it. The row holds the record as `records` shows it. A
 * row already written for the same (flow, event, record) is kept: an event happens at most
 * once per flow. Stopped, deleted and template flows subscribe to nothing. Returns the
 * company and the record of each new row.
 */
function flowEventsInsert(event: FlowEventName, occurredAt: Date, companyId: string, records: { sql: string; params: unknown[] }): { sql: string; params: unknown[] } {
  return { sql: flowEventsInsertSql(event, records.sql), params: [event, occurredAt, ...records.params, ...flowEventsInsertParams(event, companyId)] };
}

/**
 * The text of `flowEventsInsert`'s statement, which depends on the event's subject only: what a
 * prepared statement holds. `occurredAt` is the SQL of the instant of each record `r`, by
 * default a parameter (the same for every record). Its parameters, in order: the event, the
 * instant (with the default `occurredAt`), the records' own, then `flowEventsInsertParams`.
 */
export function flowEventsInsertSql(event: FlowEventName, records: string, occurredAt = '?::timestamptz'): string {
  const s = SUBJECTS[SUBJECT_OF[event]];
  return `INSERT INTO ${FLOW_EVENTS_TABLE} (id, company_id, flow_id, event, subject_id, occurred_at, record, created_at)
     SELECT gen_random_uuid(), f.company_id, f.id, ?::text, r.id, ${occurredAt}, to_jsonb(r), now()
     FROM ${records} r JOIN webhook_flows f ON f.company_id = r.company_id
     WHERE f.company_id = ?::uuid AND f.events @> ?::jsonb AND f.deleted_at IS NULL AND f.status <> 'stopped'
       AND (f.event_filters ->> 'workspace' IS NULL OR f.event_filters ->> 'workspace' = r.${s.workspace})
       AND (f.event_filters ->> 'ai_agent_id' IS NULL OR (f.event_filters ->> 'ai_agent_id')::uuid = r.${s.agent})
       AND (f.event_filters ->> 'campaign_id' IS NULL OR (f.event_filters ->> 'campaign_id')::uuid = r.${s.campaign})
     ON CONFLICT (flow_id, event, subject_id) DO NOTHING
     RETURNING company_id, subject_id`;
}

/** The parameters of `flowEventsInsertSql` after its records' own: the company's id and the event. */
export function flowEventsInsertParams(event: FlowEventName, companyId: string): unknown[] {
  return [companyId, JSON.stringify([event])];
}

/**
 * Writes the outbox rows of `event` of the record `subject` (`flowEventsInsert`) in one
 * statement: call it in the transaction of the state change, which the rows see. Returns
 * the companies with new rows.
 */
export async function insertFlowEvents(em: EntityManager, event: FlowEventName, subject: RecordKey, occurredAt: Date): Promise<string[]> {
  const { table } = SUBJECTS[SUBJECT_OF[event]];
  const insert = flowEventsInsert(event, occurredAt, subject.companyId, { sql: `(SELECT * FROM ${table} WHERE id = ? AND company_id = ?)`, params: [subject.id, subject.companyId] });
  const rows: { company_id: string }[] = await em.execute(insert.sql, insert.params);
  return [...new Set(rows.map((r) => r.company_id))];
}

/**
 * Locks up to `limit` undelivered events of a company, oldest first, for the caller's
 * transaction; rows another transaction holds are skipped, so two replicas never deliver
 * the same event.
 */
export async function lockPending(em: EntityManager, companyId: string, limit: number): Promise<PendingEvent[]> {
  const rows: { id: string; flow_id: string; event: FlowEventName; occurred_at: Date; record: Record<string, unknown> }[] = await em.execute(
    `SELECT id, flow_id, event, occurred_at, record FROM ${FLOW_EVENTS_TABLE}
     WHERE company_id = ? AND delivered_at IS NULL ORDER BY created_at, id LIMIT ? FOR UPDATE SKIP LOCKED`,
    [companyId, limit],
  );
  return rows.map((r) => ({ id: r.id, flowId: r.flow_id, event: r.event, occurredAt: new Date(r.occurred_at), record: r.record }));
}

/** Marks an event delivered: with the execution it started, or why the flow refused it. */
export async function markDelivered(em: EntityManager, id: string, outcome: { executionId: string } | { refusal: string }): Promise<void> {
  await em.execute(`UPDATE ${FLOW_EVENTS_TABLE} SET delivered_at = now(), execution_id = ?, refusal = ? WHERE id = ?`, [
    'executionId' in outcome ? outcome.executionId : null,
    'refusal' in outcome ? outcome.refusal.slice(0, 200) : null,
    id,
  ]);
}

/** Companies with events undelivered for longer than `olderThanMs`. */
export async function pendingCompanies(em: EntityManager, olderThanMs: number): Promise<string[]> {
  const rows: { company_id: string }[] = await em.execute(
    `/* sweep:flow-events.pending */ SELECT DISTINCT company_id FROM ${FLOW_EVENTS_TABLE} WHERE delivered_at IS NULL AND created_at < now() - make_interval(secs => ?)`,
    [olderThanMs / 1000],
  );
  return rows.map((r) => r.company_id);
}
