import type { Timers } from '../shared/clock';

interface Pending {
  due: number;
  run: () => void;
}

/**
 * The clock of a simulated test call: the wall clock plus the silences the simulated caller
 * kept, which pass at once. Its timers (the agent's silence watch) fire only when a silence
 * reaches them (`advance`), so a script's ten-second silence takes no ten seconds, and a
 * reminder or a hang-up for silence happens exactly where a real call's would.
 */
export class VirtualClock implements Timers {
  private offset = 0;
  private readonly pending = new Set<Pending>();

  readonly now = (): number => Date.now() + this.offset;

  setTimeout(run: () => void, ms: number): unknown {
    const timer = { due: this.now() + ms, run };
    this.pending.add(timer);
    return timer;
  }

  clearTimeout(timer: unknown): void {
    this.pending.delete(timer as Pending);
  }

  /**
   * Lets `ms` of silence pass: each timer due within it fires in order, at its moment, and
   * `settle` (the conversation's own work queue) is waited on before the next one; `stop`
   * ends the silence early (the call ended).
   */
  async advance(ms: number, settle: () => Promise<void>, stop: () => boolean): Promise<void> {
    const end = this.now() + ms;
    while (!stop()) {
      const next = [...this.pending].filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.offset += Math.max(0, next.due - this.now());
      this.pending.delete(next);
      next.run();
      await settle();
    }
    this.offset += Math.max(0, end - this.now());
  }
}
