import { type CallPrices, costAssignments, priceRecord, priceRecordFields } from '../calls/call-cost';
import { alone, sharedStatement, type ViewReads } from '../../db/statements';
import { storableText } from '../../db/storable';
import type { TokenUsage } from './language-model';
import type { TurnLatency, TurnRecord } from './live-transcript';
import { type StoredTurn, type StoredTurnLatency, storedTranscript } from './transcript';

/** A turn as stored: what a model or a caller says as PostgreSQL can hold it (a NUL becomes U+FFFD), the names snake_case. */
export function storedTurnOf(t: TurnRecord): StoredTurn {
  return {
    role: t.role,
    text: storableText(t.text),
    at: t.at.toISOString(),
    ...(t.latencyMs === undefined ? {} : { latency_ms: t.latencyMs }),
    ...(t.latency ? { latency: storedLatencyOf(t.latency) } : {}),
    ...(t.dtmf === undefined ? {} : { dtmf: t.dtmf }),
    ...(t.interrupted ? { interrupted: true as const } : {}),
  };
}

const storedLatencyOf = ({ llmFirstTokenMs, firstTextMs, voiceToVoiceMs }: TurnLatency): StoredTurnLatency => ({
  ...(llmFirstTokenMs === undefined ? {} : { llm_first_token_ms: llmFirstTokenMs }),
  ...(firstTextMs === undefined ? {} : { first_text_ms: firstTextMs }),
  ...(voiceToVoiceMs === undefined ? {} : { voice_to_voice_ms: voiceToVoiceMs }),
});

/** Whether a write's turns may replace the stored ones: a write never replaces more turns than its writer may (`at_most`). */
const FITS = `coalesce(jsonb_array_length(c.transcript_object -> 'turns'), 0) <= g.at_most`;

/** One transcript write as the statement reads it: the call, its transcript as it stands, and the model's tokens since the writer's last write. */
interface TranscriptRow extends ReturnType<typeof priceRecord> {
  id: string;
  transcript: string;
  transcript_object: { turns: StoredTurn[] };
  transcript_language: string;
  latency: number | null;
  input: number;
  output: number;
  at_most: number;
}

/**
 * The transcript writes of a company's live conversations, shared (`sharedStatement`: one
 * statement and one commit for the writes that come while one is in flight; a call's own writes
 * one after the other, in order). Each write stores the turns as they stand, unless the call
 * holds more than `at_most` (another session wrote after this one), and adds the model's tokens
 * since the last write to the call's either way, which prices the call again (calls/call-cost.ts).
 */
const WRITE = sharedStatement<TranscriptRow, { ord: number }>(
  'call-transcripts',
  `WITH given AS (
     SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(ord int, id uuid, transcript text, transcript_object jsonb, transcript_language text, latency int,
       input int, output int, at_most int, ${priceRecordFields})
   )
   UPDATE calls c SET
     transcript = CASE WHEN ${FITS} THEN g.transcript ELSE c.transcript END,
     transcript_object = CASE WHEN ${FITS} THEN g.transcript_object ELSE c.transcript_object END,
     transcript_language = CASE WHEN ${FITS} THEN g.transcript_language ELSE c.transcript_language END,
     latency = CASE WHEN ${FITS} THEN COALESCE(g.latency, c.latency) ELSE c.latency END,
     llm_input_tokens = c.llm_input_tokens + g.input, llm_output_tokens = c.llm_output_tokens + g.output,
     ${costAssignments({ durationS: 'c.call_duration', inputTokens: '(c.llm_input_tokens + g.input)', outputTokens: '(c.llm_output_tokens + g.output)', recorded: 'c.recording_sid IS NOT NULL' }, 'g')}
   FROM given g WHERE c.id = g.id AND c.company_id = ?::uuid
   RETURNING g.ord`,
  { distinct: 'id' },
);

/** Writes a conversation's transcript as it stands (`turns`, replacing no more than `atMost` stored turns) and adds the model's tokens since the last write. */
export async function writeTranscript(
  reads: ViewReads,
  call: { id: string; companyId: string; language: string },
  { turns, atMost }: { turns: readonly StoredTurn[]; atMost: number },
  added: TokenUsage,
  prices: CallPrices,
): Promise<void> {
  const { text, object, latencyMs } = storedTranscript(turns);
  await WRITE(alone, reads, call.companyId, {
    id: call.id,
    transcript: text,
    transcript_object: object,
    transcript_language: call.language,
    latency: latencyMs,
    input: added.input,
    output: added.output,
    at_most: atMost,
    ...priceRecord(prices),
  });
}
