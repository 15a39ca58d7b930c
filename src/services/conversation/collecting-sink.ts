import type { ConversationEndReason, ConversationSink } from './conversation';

/**
 * A transport that only listens: it collects the agent's turns (each line said, each streamed
 * turn trimmed, empty ones left out), how the conversation ended and to whom it was transferred,
 * for the simulated callee and the playground. Keys, language switches and audio go nowhere.
 */
export class CollectingSink implements ConversationSink {
  readonly agentTurns: string[] = [];
  ended: ConversationEndReason | null = null;
  /** The transfer the agent asked for, when it did: to whom, and a warm one's summary. */
  transferred: { number: string; summary: string | null } | null = null;
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

  transfer(number: string, summary: string | null): void {
    this.transferred ??= { number, summary };
    this.ended ??= 'call_transfer';
  }

  play(): void {}
  sendDigits(): void {}
  language(): void {}
}
