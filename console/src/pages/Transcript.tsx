/** A turn's latency breakdown in ms (GraphQL `TranscriptTurn.latency`); each part only when measured. */
interface LatencyBreakdown {
  llmFirstTokenMs?: number | null;
  firstTextMs?: number | null;
  voiceToVoiceMs?: number | null;
}

/** A transcript turn as the call page shows it. */
interface Turn {
  role: string;
  text: string;
  latencyMs?: number | null;
  latency?: LatencyBreakdown | null;
}

const PARTS = [
  ['llmFirstTokenMs', "model's first token"],
  ['firstTextMs', 'first text sent'],
  ['voiceToVoiceMs', 'voice to voice'],
] as const;

/** How long the agent took to answer, as measured: the breakdown when there is one, else `latencyMs`; empty when neither. */
export function latencyText({ latency, latencyMs }: Turn): string {
  const parts = latency ? PARTS.flatMap(([key, name]) => (latency[key] == null ? [] : [`${name} ${latency[key]} ms`])) : [];
  if (parts.length > 0) return `latency: ${parts.join(', ')}`;
  return latencyMs == null ? '' : `latency ${latencyMs} ms`;
}

/** The call's turns as they are stored, each agent answer with its latency; a live region while the call grows. */
export function Transcript({ turns, ended }: { turns: Turn[]; ended: boolean }) {
  return (
    <section className="card" aria-labelledby="call-transcript">
      <h2 id="call-transcript">Transcript</h2>
      {turns.length === 0 && <p>{ended ? 'No transcript.' : 'Turns appear here as they are spoken.'}</p>}
      <ol className="transcript" aria-live="polite">
        {turns.map((t, i) => {
          const latency = latencyText(t);
          return (
            <li key={i} className={`turn turn-${t.role}`}>
              <span className="who">{t.role}</span> {t.text}
              {latency && <small className="latency">{latency}</small>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
