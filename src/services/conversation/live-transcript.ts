import type { TokenUsage } from './language-model';

/** One turn of the transcript, as stored on the call (docs/agents.md, "Transcript"). */
export interface TurnRecord {
  role: 'agent' | 'user';
  text: string;
  at: Date;
  /** Agent turns answering a final user utterance: ms from that utterance to the first token sent. */
  latencyMs?: number;
  /** Agent turns of the model: where the latency went (docs/calls.md, "Latency"). */
  latency?: TurnLatency;
  /** User turns of a key pressed: the key (the text reads `[pressed 5]`). */
  dtmf?: string;
  /** Agent turns the callee spoke over: `text` is what was heard of them. */
  interrupted?: boolean;
}

/** An agent turn's latency breakdown, in ms; a figure not measured is left out. */
export interface TurnLatency {
  llmFirstTokenMs?: number;
  firstTextMs?: number;
  voiceToVoiceMs?: number;
}

/** Where the transcript goes: told the whole of it, with the model's tokens so far, after each change. */
export interface TranscriptRecorder {
  save(turns: readonly TurnRecord[], usage: TokenUsage): void;
  /** Resolves once everything saved so far is stored. */
  settled(): Promise<void>;
}

/**
 * A conversation's transcript while it runs, and the model's tokens it cost. A turn added or
 * cut is saved at once; what is only measured (tokens, a voice-to-voice latency) waits in
 * memory for the next save, or the last one (`flush`), so that no write is made for it alone.
 * A turn is never changed in place: a change replaces it, so that a recorder may keep what it
 * made of each turn it was given.
 */
export class LiveTranscript {
  private readonly turns: TurnRecord[] = [];
  private readonly usage: TokenUsage = { input: 0, output: 0 };
  private unsaved = false;

  constructor(private readonly recorder: TranscriptRecorder) {}

  add(turn: TurnRecord): number {
    this.turns.push(turn);
    this.save();
    return this.turns.length - 1;
  }

  /**
   * The callee spoke over an agent turn: only what was heard of it is kept, marked as
   * interrupted (what a replay of the call repeats); one of which nothing was heard is
   * dropped (it was never said).
   */
  cut(index: number, heard: string): void {
    const turn = this.turns[index];
    if (!turn || turn.interrupted) return;
    if (heard === '') this.turns.splice(index, 1);
    else this.turns[index] = { ...turn, text: heard, interrupted: true };
    this.save();
  }

  used(usage: TokenUsage): void {
    this.usage.input += usage.input;
    this.usage.output += usage.output;
    this.unsaved = true;
  }

  /** The voice-to-voice latency of an agent turn, once the transport reports the agent's voice. */
  voiceToVoice(index: number, ms: number): void {
    const turn = this.turns[index];
    if (!turn || turn.latency?.voiceToVoiceMs !== undefined) return;
    this.turns[index] = { ...turn, latency: { ...turn.latency, voiceToVoiceMs: ms } };
    this.unsaved = true;
  }

  /** The agent's turns since the callee's last one, with their indices. */
  agentTail(): { index: number; text: string }[] {
    const lastUser = this.turns.findLastIndex((t) => t.role === 'user');
    return this.turns.flatMap((t, index) => (index > lastUser ? [{ index, text: t.text }] : []));
  }

  /** Keeps what was heard of the turns at `indices` (`heard`, in their order): each is cut, and left out when nothing was heard. */
  keepHeard(indices: readonly number[], heard: readonly string[]): void {
    const cut = new Map(indices.map((index, i) => [index, heard[i]]));
    const kept = this.turns.flatMap((t, i) => {
      const text = cut.get(i);
      if (text === undefined || text === t.text) return [t];
      return text === '' ? [] : [{ ...t, text }];
    });
    if (kept.length === this.turns.length && kept.every((t, i) => t === this.turns[i])) return;
    this.turns.splice(0, this.turns.length, ...kept);
    this.save();
  }

  /** Saves what waits in memory, if anything. */
  flush(): void {
    if (this.unsaved) this.save();
  }

  settled(): Promise<void> {
    return this.recorder.settled();
  }

  private save(): void {
    this.unsaved = false;
    this.recorder.save(this.turns, { ...this.usage });
  }
}
