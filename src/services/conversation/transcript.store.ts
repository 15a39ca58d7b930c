import type { EntityManager } from '@mikro-orm/postgresql';
import { type CallPrices, PRICES_ROW, priceParams, storedCostAssignments } from '../calls/call-cost';
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

/** Whether a write's turns may replace the stored ones: a write never replaces more turns than its writer may (`atMost`). */
const FITS = `coalesce(jsonb_array_length(c.transcript_object -> 'turns'), 0) <= u.at_most`;

/**
 * One write of a conversation's transcript: the turns as they stand, unless the call holds more
 * than `atMost` (another session wrote after this one), and the model's tokens since the last
 * write added to the call's either way, which prices the call again (calls/call-cost.ts).
 */
const WRITE = `UPDATE calls c SET
    transcript = CASE WHEN ${FITS} THEN ? ELSE c.transcript END,
    transcript_object = CASE WHEN ${FITS} THEN ?::jsonb ELSE c.transcript_object END,
    transcript_language = CASE WHEN ${FITS} THEN ? ELSE c.transcript_language END,
    latency = CASE WHEN ${FITS} THEN COALESCE(?::int, c.latency) ELSE c.latency END,
    llm_input_tokens = c.llm_input_tokens + u.input, llm_output_tokens = c.llm_output_tokens + u.output,
    ${storedCostAssignments({ inputTokens: '(c.llm_input_tokens + u.input)', outputTokens: '(c.llm_output_tokens + u.output)' })}
  FROM (SELECT ?::int AS input, ?::int AS output, ?::int AS at_most) u, ${PRICES_ROW}
  WHERE c.id = ? AND c.company_id = ?`;

export async function writeTranscript(
  em: EntityManager,
  call: { id: string; companyId: string; language: string },
  { turns, atMost }: { turns: readonly StoredTurn[]; atMost: number },
  added: TokenUsage,
  prices: CallPrices,
): Promise<void> {
  const { text, object, latencyMs } = storedTranscript(turns);
  await em.execute(WRITE, [text, JSON.stringify(object), call.language, latencyMs, added.input, added.output, atMost, ...priceParams(prices), call.id, call.companyId]);
}
