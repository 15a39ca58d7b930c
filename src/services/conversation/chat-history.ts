import type { ChatMessage } from './language-model';

/**
 * Said on the callee's side, as the first user message, when the agent talks first: templates
 * such as Qwen3's refuse a history without a user message, and those that require alternating
 * turns refuse one that opens with the assistant (docs/agents.md, "The history sent to the model").
 */
export const CALL_ANSWERED_NOTE = '[The call has been answered. The caller has not said anything yet.]';

/**
 * The messages of one request, in a shape every common chat template accepts (vLLM and
 * llama.cpp with Llama, Qwen3, Gemma or Mistral templates):
 * - one system message, first, and no other;
 * - then user and assistant turns strictly alternating, starting with a user turn (the
 *   `CALL_ANSWERED_NOTE` when the history opens with the agent); assistant messages carrying
 *   tool calls and the tool results after them belong to the assistant's turn and do not count;
 * - consecutive turns of one role merged (user turns by a line break, assistant turns by a
 *   space: two answers in a row, such as a greeting and a reminder's);
 * - no assistant message without text or tool calls;
 * - a tool round the model never answered in words (its turn was cut, or ran out of rounds)
 *   keeps only its text, since templates that require alternation refuse a user turn after it
 *   (the last round of a turn in flight stays whole: the model answers it next);
 * - `note` (a reminder) as a user turn at the end.
 */
export function chatHistory(system: string, history: readonly ChatMessage[], note?: string): ChatMessage[] {
  const turns: ChatMessage[] = [];
  const source = [...settled(history, note === undefined), ...(note ? [{ role: 'user' as const, content: note }] : [])];
  for (const message of source) {
    if (message.role === 'system') continue;
    if (message.role === 'assistant' && !message.toolCalls?.length && message.content === '') continue;
    const last = turns.at(-1);
    if (turns.length === 0 && message.role !== 'user') turns.push({ role: 'user', content: CALL_ANSWERED_NOTE });
    if (last?.role === 'user' && message.role === 'user') last.content = `${last.content}\n${message.content}`;
    else if (last?.role === 'assistant' && !last.toolCalls?.length && message.role === 'assistant' && !message.toolCalls?.length) last.content = `${last.content} ${message.content}`;
    else turns.push({ ...message });
  }
  if (turns.length === 0) turns.push({ role: 'user', content: CALL_ANSWERED_NOTE });
  return [{ role: 'system', content: system }, ...turns];
}

/**
 * The history with every tool round the model did not answer in words reduced to its text;
 * the round at the end stays whole when `awaitingAnswer` (the turn in flight asks the model next).
 */
function settled(history: readonly ChatMessage[], awaitingAnswer: boolean): ChatMessage[] {
  const out: ChatMessage[] = [];
  let round: ChatMessage[] = [];
  const closeRound = (answered: boolean) => {
    if (answered) out.push(...round);
    else for (const m of round) if (m.role === 'assistant' && m.content !== '') out.push({ role: 'assistant', content: m.content });
    round = [];
  };
  for (const message of history) {
    const inRound = message.role === 'tool' || (message.role === 'assistant' && Boolean(message.toolCalls?.length));
    if (inRound) round.push(message);
    else {
      if (round.length) closeRound(message.role === 'assistant' && message.content !== '');
      out.push(message);
    }
  }
  closeRound(awaitingAnswer);
  return out;
}

/**
 * The history of a transcript's turns, for a conversation taken up in a new session: agent
 * turns as the assistant's, the callee's as the user's (`chatHistory` merges and orders them).
 */
export const historyOfTurns = (turns: readonly { role: 'agent' | 'user'; text: string }[]): ChatMessage[] =>
  turns.map((t) => (t.role === 'agent' ? { role: 'assistant' as const, content: t.text } : { role: 'user' as const, content: t.text }));
