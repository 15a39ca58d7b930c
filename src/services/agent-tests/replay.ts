import { speakingMs } from '../conversation/playback';
import type { StoredTurn } from '../conversation/transcript';
import type { CallerTurn } from './scenario.input';

/** A user turn stored before keys were marked (`dtmf`) reads `[pressed 5]`. */
const PRESSED = /^\[pressed ([0-9*#A-D])\]$/;

const at = (turn: StoredTurn): number => Date.parse(turn.at);

/**
 * The caller's side of a finished call as a script (docs/agents.md, "Replay a real call"):
 * each utterance, each key, an utterance that cut the agent's turn short spoken over the
 * replayed agent's turn as long into it as the caller let the original run, and the
 * silences the caller kept after the agent's voice (by its `at` and the estimate of how long
 * the agent's words took), so that the replayed agent's reminders and hang-ups for silence
 * come where the original's did.
 */
export function replayScript(turns: readonly StoredTurn[]): CallerTurn[] {
  const script: CallerTurn[] = [];
  let previous: StoredTurn | null = null;
  for (const turn of turns) {
    if (turn.role === 'user') script.push(...callerStep(turn, previous));
    previous = turn;
  }
  return script;
}

function callerStep(turn: StoredTurn, previous: StoredTurn | null): CallerTurn[] {
  const key = turn.dtmf ?? PRESSED.exec(turn.text)?.[1];
  const interrupting = previous?.role === 'agent' && previous.interrupted === true;
  const silence = previous?.role === 'agent' && !interrupting ? at(turn) - (at(previous) + speakingMs(previous.text)) : 0;
  const wait: CallerTurn[] = silence >= 1000 ? [{ silenceMs: silence }] : [];
  if (key !== undefined) return [...wait, { dtmf: key }];
  if (interrupting) return [{ say: turn.text, interruptAfterMs: Math.max(0, at(turn) - at(previous)) }];
  return [...wait, { say: turn.text }];
}

/** One position of the two transcripts, side by side. */
export interface ReplayTurn {
  original: { role: StoredTurn['role']; text: string } | null;
  replayed: { role: StoredTurn['role']; text: string } | null;
  /** Whether the two say the same thing (same speaker, same words, case and punctuation aside). */
  same: boolean;
}

/** The original call and its replay, turn by turn, and the first turn where they part. */
export interface ReplayComparison {
  callId: string;
  turns: ReplayTurn[];
  /** Index in `turns` of the first turn that differs; null when the replay said the same throughout. */
  divergedAt: number | null;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
const side = (turn: StoredTurn | undefined) => (turn ? { role: turn.role, text: turn.text } : null);

export function compareReplay(callId: string, original: readonly StoredTurn[], replayed: readonly StoredTurn[]): ReplayComparison {
  const turns = Array.from({ length: Math.max(original.length, replayed.length) }, (_, i): ReplayTurn => {
    const [a, b] = [original[i], replayed[i]];
    return { original: side(a), replayed: side(b), same: a !== undefined && b !== undefined && a.role === b.role && words(a.text) === words(b.text) };
  });
  const diverged = turns.findIndex((t) => !t.same);
  return { callId, turns, divergedAt: diverged < 0 ? null : diverged };
}
