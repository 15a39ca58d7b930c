/**
 * The transcript of a call as stored (docs/calls.md, "Transcript"): `transcript_object` is
 * `{turns: [...]}` of these, `transcript` one `Agent: …` / `User: …` line per turn, `latency`
 * the median of the agent turns' latencies (`callLatency`). One shape for every provider.
 */
export interface StoredTurn {
  role: 'agent' | 'user';
  text: string;
  /** When the turn was said (ISO 8601): a user turn when final, an agent turn at its first token. */
  at: string;
  /** Agent turns answering the callee: ms from the final user utterance to the first token sent. */
  latency_ms?: number;
  /** Agent turns of the model: where the latency went (docs/calls.md, "Latency"). */
  latency?: StoredTurnLatency;
  /** User turns of a key the callee pressed: the key (`text` reads `[pressed 5]`); a replay presses it again. */
  dtmf?: string;
  /** Agent turns the callee spoke over: `text` is what was heard; a replay interrupts there again. */
  interrupted?: true;
}

/** An agent turn's latency breakdown, each figure in ms and present when measured. */
export interface StoredTurnLatency {
  /** From the turn's first model request to the model's first token (text or tool call). */
  llm_first_token_ms?: number;
  /** From what started the turn (the callee's final utterance, else the turn's start) to its first text sent. */
  first_text_ms?: number;
  /** From the callee's end of speech to the agent's voice, as Twilio reported them (`info` events). */
  voice_to_voice_ms?: number;
}

export interface StoredTranscript {
  text: string;
  object: { turns: StoredTurn[] };
  /** Median latency in ms; null while no agent turn has answered the callee. */
  latencyMs: number | null;
}

const ROLE_LABEL = { agent: 'Agent', user: 'User' } as const;

export function transcriptText(turns: readonly StoredTurn[]): string {
  return turns.map((t) => `${ROLE_LABEL[t.role]}: ${t.text.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}

/**
 * A call's `latency`: the median voice-to-voice latency of its turns when Twilio reported any
 * (what the callee lived), else the median `latency_ms` (what the service measured itself);
 * one figure or the other, never a mix of both.
 */
export function callLatency(turns: readonly StoredTurn[]): number | null {
  const voice = turns.flatMap((t) => (t.latency?.voice_to_voice_ms === undefined ? [] : [t.latency.voice_to_voice_ms]));
  return median(voice.length > 0 ? voice : turns.flatMap((t) => (t.latency_ms === undefined ? [] : [t.latency_ms])));
}

function median(measured: number[]): number | null {
  const values = [...measured].sort((a, b) => a - b);
  if (values.length === 0) return null;
  const mid = values.length >> 1;
  return Math.round(values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2);
}

export function storedTranscript(turns: readonly StoredTurn[]): StoredTranscript {
  return { text: transcriptText(turns), object: { turns: [...turns] }, latencyMs: callLatency(turns) };
}
