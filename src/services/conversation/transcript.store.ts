import { storableText } from '../input/storable';
import type { TurnLatency, TurnRecord } from './live-transcript';
import type { StoredTurn, StoredTurnLatency } from './transcript';

/** A turn as stored: what a model or a caller says as PostgreSQL can hold it (a NUL becomes U+FFFD), the names snake_case. */
export function storedTurnOf(t: TurnRecord): StoredTurn {
  return {
    role: t.role,
    text: storableText(t.text),
    at: t.at.toISOString(),
    ...(t.latencyMs === undefined ? {} : { latency_ms: t.latencyMs }),
    ...(t.latency ? { latency: storedLatencyOf(t.latency) } : {}),
  };
}

const storedLatencyOf = ({ llmFirstTokenMs, firstTextMs, voiceToVoiceMs }: TurnLatency): StoredTurnLatency => ({
  ...(llmFirstTokenMs === undefined ? {} : { llm_first_token_ms: llmFirstTokenMs }),
  ...(firstTextMs === undefined ? {} : { first_text_ms: firstTextMs }),
  ...(voiceToVoiceMs === undefined ? {} : { voice_to_voice_ms: voiceToVoiceMs }),
});
