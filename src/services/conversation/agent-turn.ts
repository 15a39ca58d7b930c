import type { CallAction } from './call-tools';
import type { ChatMessage } from './language-model';
import type { TurnLatency } from './live-transcript';

/** One agent turn in flight: what it sent, what the callee heard of it, and when each step came. */
export interface AgentTurn {
  controller: AbortController;
  /** Text sent to the sink so far. */
  sent: string;
  /** Tool calls the model made in this turn. */
  toolCalls: number;
  /** Set when the callee spoke over the turn: what they heard. */
  heard?: string;
  historyStart: number;
  /** When the callee's final utterance it answers came; null for a turn of the agent's own (a greeting, a reminder). */
  answering: number | null;
  /**
   * When the turn began, its first model request went, the model's first token came, its
   * first text was sent (the model's, or a line said instead), and the model's first text was.
   */
  startedAt: number;
  modelAskedAt?: number;
  modelFirstTokenAt?: number;
  firstTextAt?: number;
  modelTextAt?: number;
  /** From the callee's end of speech to the agent's voice, when the transport reported both. */
  voiceToVoiceMs?: number;
}

export const newTurn = (historyStart: number, answering: number | null, now: number): AgentTurn => ({
  controller: new AbortController(),
  sent: '',
  toolCalls: 0,
  historyStart,
  answering,
  startedAt: now,
});

/** Whether `action` ends the call only after a goodbye the turn has not said yet. */
export const waitsForGoodbye = (action: CallAction, turn: AgentTurn): boolean => action.kind === 'end' && action.afterGoodbye === true && turn.sent.trim() === '';

/** Where `turn`'s latency went, from what started it (the callee's utterance, else the turn itself); undefined when nothing was measured. */
export function latencyOf(turn: AgentTurn): TurnLatency | undefined {
  const { modelAskedAt: asked, modelFirstTokenAt: first, firstTextAt: text, voiceToVoiceMs } = turn;
  const latency: TurnLatency = {
    ...(asked !== undefined && first !== undefined ? { llmFirstTokenMs: first - asked } : {}),
    ...(text !== undefined ? { firstTextMs: text - (turn.answering ?? turn.startedAt) } : {}),
    ...(voiceToVoiceMs !== undefined ? { voiceToVoiceMs } : {}),
  };
  return Object.keys(latency).length > 0 ? latency : undefined;
}

/** Keeps only what the callee heard of an agent turn in `history`: its first message says it, the rest say nothing. */
export function cutHistory(history: ChatMessage[], historyStart: number, heard: string): void {
  history.slice(historyStart).forEach((m, i) => {
    if (m.role === 'assistant') m.content = i === 0 ? heard : '';
  });
}

/** After a canceled turn, the history holds what was sent (or heard) of its unfinished round too. */
export function settleHistory(history: ChatMessage[], turn: AgentTurn): void {
  const inHistory = history.slice(turn.historyStart).reduce((n, m) => n + (m.role === 'assistant' ? m.content.length : 0), 0);
  const unfinished = turn.sent.slice(inHistory);
  if (unfinished !== '') history.push({ role: 'assistant', content: unfinished });
  if (turn.heard !== undefined) cutHistory(history, turn.historyStart, turn.heard);
}
