import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Keeps the recording of an ended call of `provider` whose agent records (`call_recording` not
 * off), in one statement: every ended call asks, and most do not record. A call's agent is of
 * its company (as placing it requires). True when it was kept.
 */
export async function keepRecordingIfRecorded(
  em: EntityManager,
  call: { id: string; companyId: string },
  provider: string,
  recording: { sid: string; url: string; at: Date },
): Promise<boolean> {
  const rows = await em.execute(
    `UPDATE calls c SET recording_sid = ?, recording_at = ?, record_url = ?
     FROM ai_agents a
     WHERE c.id = ? AND c.company_id = ? AND c.call_provider = ?
       AND a.id = c.ai_agent_id AND a.company_id = ?
       AND a.call_recording <> 'off'
     RETURNING c.id`,
    [recording.sid, recording.at, recording.url, call.id, call.companyId, provider, call.companyId],
  );
  return rows.length > 0;
}
