import type { Clock, Timers } from '../../src/services/shared/clock';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private at: Date) {}

  now(): Date {
    return new Date(this.at);
  }

  set(at: Date | string): void {
    this.at = new Date(at);
  }

  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}

/**
 * A fake clock with timers, for the conversation engine (`now` and `timers`): time moves only
 * when the test advances it, and the timers due on the way run in order, each at its time.
 */
export class FakeTimers implements Timers {
  private at: number;
  private pending: { due: number; run: () => void; id: number }[] = [];
  private ids = 0;

  constructor(start = Date.parse('2026-11-27T12:00:00Z')) {
    this.at = start;
  }

  readonly now = (): number => this.at;

  setTimeout(run: () => void, ms: number): number {
    this.pending.push({ due: this.at + Math.max(0, ms), run, id: ++this.ids });
    return this.ids;
  }

  clearTimeout(timer: unknown): void {
    this.pending = this.pending.filter((t) => t.id !== timer);
  }

  /** Moves time on by `ms`, running each timer due on the way at its own time. */
  advance(ms: number): void {
    const end = this.at + ms;
    for (;;) {
      const next = this.pending.filter((t) => t.due <= end).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.pending = this.pending.filter((t) => t !== next);
      this.at = next.due;
      next.run();
    }
    this.at = end;
  }
}
