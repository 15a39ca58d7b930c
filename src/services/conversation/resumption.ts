import type { ConversationOpening } from './conversation';
import type { StoredTurn } from './transcript';

/** Said first when a session is resumed after a drop (docs/calls.md, "A call that survives its replica"). */
export const RESUMED_LINE = 'Sorry, I lost you for a moment.';
/** Said first when the agent is back after a transfer nobody took. */
export const TRANSFER_FAILED_LINE = "I'm sorry, I couldn't reach anyone just now.";

/** Told to the model (the caller's side, for one answer) after the resumed line. */
export const RESUMED_NOTE = '[The line dropped for a moment and is back. You have just apologised for it. Go on from where the conversation was, in one or two short sentences.]';
/** Told to the model after the line of a failed transfer. */
export const TRANSFER_FAILED_NOTE =
  '[The transfer to a person did not go through: nobody took the call. You have just told the caller so. Offer to help in another way, in one or two short sentences.]';

/**
 * How a conversation taken up in a new session starts: the turns stored so far (what the model
 * is told happened), a fixed line said at once instead of the opening disclosure and the
 * greeting, then one answer of the model with `note`.
 */
export interface Resumption {
  turns: readonly Pick<StoredTurn, 'role' | 'text'>[];
  line: string;
  note: string;
}

/** The turns of a stored `transcript_object` as they are stored, skipping anything that is not one. */
export function storedTurnsOf(object: Record<string, unknown> | null): StoredTurn[] {
  const turns: unknown[] = Array.isArray(object?.turns) ? object.turns : [];
  return turns.filter((t): t is StoredTurn => {
    const turn = t as Partial<StoredTurn> | null;
    return turn !== null && typeof turn === 'object' && (turn.role === 'agent' || turn.role === 'user') && typeof turn.text === 'string';
  });
}

/** How a session of `opening` starts from the stored turns; undefined for a call's first session. */
export function resumptionOf(opening: ConversationOpening, turns: readonly StoredTurn[]): Resumption | undefined {
  if (opening === 'new') return undefined;
  return opening === 'resumed' ? { turns, line: RESUMED_LINE, note: RESUMED_NOTE } : { turns, line: TRANSFER_FAILED_LINE, note: TRANSFER_FAILED_NOTE };
}
