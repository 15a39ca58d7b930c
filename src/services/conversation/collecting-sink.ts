import type { ConversationEndReason, ConversationSink } from './conversation';

/**
 * A transport that only listens: it collects the agent's turns (each line said, each streamed
 * turn trimmed, empty ones left out) and how the conversation ended, for the simulated callee
 * and the playground. Keys and language switches go nowhere.
 */
export class CollectingSink implements ConversationSink {
  readonly agentTurns: string[] = [];
  ended: ConversationEndReason | null = null;
  private current = '';

  text(token: string, last: boolean): void {
    this.current += token;
    if (!last) return;
    const turn = this.current.trim();
    this.current = '';
    if (turn !== '') this.agentTurns.push(turn);
  }

  say(text: string): void {
    this.agentTurns.push(text);
  }

  end(reason: ConversationEndReason): void {
    this.ended ??= reason;
  }

  transfer(): void {
    this.ended ??= 'call_transfer';
  }

  sendDigits(): void {}
  language(): void {}
}
