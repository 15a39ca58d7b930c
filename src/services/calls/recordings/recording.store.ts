import type { EntityManager } from '@mikro-orm/postgresql';
import { alone, sharedStatement, type ViewReads } from '../../../db/statements';
import type { RecordKey } from '../../shared/scope';
import { type CallPrices, PRICES_ROW, priceParams, priceRecord, priceRecordFields, storedCostAssignments } from '../call-cost';

/** A recording kept on a call: the provider's id, our URL serving it, when it was stored. */
export interface KeptRecording {
  sid: string;
  url: string;
  at: Date;
}

/** The assignments keeping a recording (its sid, instant and URL: SQL values), and its cost with the call's (calls/call-cost.ts), prices from `prices`: the call is now recorded. */
const keepAssignments = (sid: string, at: string, url: string, prices = 'p') =>
  `recording_sid = ${sid}, recording_at = ${at}, record_url = ${url}, ${storedCostAssignments({ recorded: 'true' }, prices)}`;
const KEEP = keepAssignments('?', '?', '?');

/** A recording to keep if its call records (`keepRecordingIfRecorded`), as the shared statement reads it, with the prices. */
type KeptIfRecorded = { id: string; provider: string; sid: string; url: string; at: Date } & ReturnType<typeof priceRecord>;

const KEEP_IF_RECORDED = sharedStatement<KeptIfRecorded, { ord: number }>(
  'keep-recording-if-recorded',
  `WITH given AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord int, id uuid, provider text, sid text, url text, at timestamptz, ${priceRecordFields}))
   UPDATE calls c SET ${keepAssignments('g.sid', 'g.at', 'g.url', 'g')}
   FROM given g, ai_agents a
   WHERE c.id = g.id AND c.company_id = ?::uuid AND c.call_provider = g.provider
     AND a.id = c.ai_agent_id AND a.company_id = c.company_id
     AND a.call_recording <> 'off'
   RETURNING g.ord`,
  { distinct: 'id' },
);

/**
 * Keeps the recording of an ended call of `provider` whose agent records (`call_recording` not
 * off), in one statement, shared by the company's calls ending together (`sharedStatement`):
 * every ended call asks, and most do not record. A call's agent is of its company (as placing
 * it requires). True when it was kept.
 */
export async function keepRecordingIfRecorded(reads: ViewReads, call: RecordKey, provider: string, recording: KeptRecording, prices: CallPrices): Promise<boolean> {
  const rows = await KEEP_IF_RECORDED(alone, reads, call.companyId, { id: call.id, provider, ...recording, ...priceRecord(prices) });
  return rows.length > 0;
}

/** Keeps the recording the provider reported for a call (Twilio's `RecordingStatusCallback`). */
export async function keepRecording(em: EntityManager, call: { id: string; companyId: string }, recording: KeptRecording, prices: CallPrices): Promise<void> {
  await em.execute(`UPDATE calls c SET ${KEEP} FROM ${PRICES_ROW} WHERE c.id = ? AND c.company_id = ?`, [recording.sid, recording.at, recording.url, ...priceParams(prices), call.id, call.companyId]);
}
