/**
 * The transcript of a call as stored (docs/calls.md, "Transcript"): `transcript_object` is
 * `{turns: [...]}` of these, `transcript` one `Agent: …` / `User: …` line per turn, `latency`
 * the median of the agent turns' `latency_ms`. One shape for every provider.
 */
export interface StoredTurn {
  role: 'agent' | 'user';
  text: string;
  /** When the turn was said (ISO 8601): a user turn when final, an agent turn at its first token. */
  at: string;
  /** Agent turns answering the callee: ms from the final user utterance to the first token sent. */
  latency_ms?: number;
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

export function medianLatency(turns: readonly StoredTurn[]): number | null {
  const values = turns.flatMap((t) => (t.latency_ms === undefined ? [] : [t.latency_ms])).sort((a, b) => a - b);
  if (values.length === 0) return null;
  const mid = values.length >> 1;
  return Math.round(values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2);
}

export function storedTranscript(turns: readonly StoredTurn[]): StoredTranscript {
  return { text: transcriptText(turns), object: { turns: [...turns] }, latencyMs: medianLatency(turns) };
}
