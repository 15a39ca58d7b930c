import type { ChatMessage, LanguageModel } from './language-model';

/** How long the model may take to summarise a conversation for a warm transfer, the hold audio playing meanwhile. */
export const SUMMARY_TIMEOUT_MS = 4000;
/** Longest summary said to the person taking a warm transfer. */
export const SUMMARY_MAX_CHARS = 600;
/** Turns the summary falls back to, the last ones. */
const FALLBACK_TURNS = 4;

const SUMMARY_PROMPT =
  'You prepare a phone transfer. In at most two short spoken sentences, tell the person about to take the call who the caller is, ' +
  'what they want and anything already agreed. Plain words, no lists, no markdown, no greeting.';

/** A line of the conversation as the person taking the call would read it. */
export interface SpokenTurn {
  role: 'agent' | 'user';
  text: string;
}

/** The spoken turns of a history: the caller's and the agent's words, without tool rounds. */
export function spokenTurns(history: readonly ChatMessage[]): SpokenTurn[] {
  return history.flatMap((m) => {
    if ((m.role !== 'user' && m.role !== 'assistant') || m.content.trim() === '') return [];
    return [{ role: m.role === 'user' ? ('user' as const) : ('agent' as const), text: m.content.trim() }];
  });
}

const clip = (text: string): string => (text.length <= SUMMARY_MAX_CHARS ? text : `${text.slice(0, SUMMARY_MAX_CHARS - 1).trimEnd()}…`);

/** The summary without a model: the conversation's last turns, as they were said. */
export function lastTurnsSummary(turns: readonly SpokenTurn[]): string {
  const said = turns.slice(-FALLBACK_TURNS).map((t) => `${t.role === 'user' ? 'The caller said' : 'The agent said'}: ${t.text}`);
  return clip(said.length ? said.join(' ') : 'A caller is being transferred to you.');
}

/**
 * What the person taking a warm transfer is told before being connected: the model's summary
 * of the conversation within SUMMARY_TIMEOUT_MS (or until `signal`), else, when the model
 * fails, is slow or answers nothing, the last turns (docs/calls.md, "Transfers").
 */
export async function transferSummary(model: LanguageModel, turns: readonly SpokenTurn[], signal: AbortSignal): Promise<string> {
  const conversation = turns.map((t) => `${t.role === 'user' ? 'Caller' : 'Agent'}: ${t.text}`).join('\n');
  try {
    const answer = await model.stream(
      {
        messages: [
          { role: 'system', content: SUMMARY_PROMPT },
          { role: 'user', content: conversation === '' ? '(The caller has said nothing yet.)' : conversation },
        ],
        signal: AbortSignal.any([signal, AbortSignal.timeout(SUMMARY_TIMEOUT_MS)]),
      },
      () => undefined,
    );
    const text = answer.text.replace(/\s+/g, ' ').trim();
    if (text !== '') return clip(text);
  } catch {
    // The model's failure is the fallback's cue, not the call's end.
  }
  return lastTurnsSummary(turns);
}
