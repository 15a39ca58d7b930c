import type { EntityManager } from '@mikro-orm/postgresql';
import { type CallPrices, PRICES_ROW, priceParams, storedCostAssignments } from '../call-cost';

/** A recording kept on a call: the provider's id, our URL serving it, when it was stored. */
export interface KeptRecording {
  sid: string;
  url: string;
  at: Date;
}

/** The assignments keeping a recording, and its cost with the call's (calls/call-cost.ts): the call is now recorded. */
const KEEP = `recording_sid = ?, recording_at = ?, record_url = ?, ${storedCostAssignments({ recorded: 'true' })}`;

/**
 * Keeps the recording of an ended call of `provider` whose agent records (`call_recording` not
 * off), in one statement: every ended call asks, and most do not record. A call's agent is of
 * its company (as placing it requires). True when it was kept.
 */
export async function keepRecordingIfRecorded(em: EntityManager, call: { id: string; companyId: string }, provider: string, recording: KeptRecording, prices: CallPrices): Promise<boolean> {
  const rows = await em.execute(
    `UPDATE calls c SET ${KEEP}
     FROM ai_agents a, ${PRICES_ROW}
     WHERE c.id = ? AND c.company_id = ? AND c.call_provider = ?
       AND a.id = c.ai_agent_id AND a.company_id = ?
       AND a.call_recording <> 'off'
     RETURNING c.id`,
    [recording.sid, recording.at, recording.url, ...priceParams(prices), call.id, call.companyId, provider, call.companyId],
  );
  return rows.length > 0;
}

/** Keeps the recording the provider reported for a call (Twilio's `RecordingStatusCallback`). */
export async function keepRecording(em: EntityManager, call: { id: string; companyId: string }, recording: KeptRecording, prices: CallPrices): Promise<void> {
  await em.execute(`UPDATE calls c SET ${KEEP} FROM ${PRICES_ROW} WHERE c.id = ? AND c.company_id = ?`, [recording.sid, recording.at, recording.url, ...priceParams(prices), call.id, call.companyId]);
}
