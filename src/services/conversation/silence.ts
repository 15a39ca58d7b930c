/** The agent's silence settings, in ms (the agent stores seconds). */
export interface SilenceSettings {
  /** A reminder after a random wait in this range; null: no reminders. */
  reminderMs: { from: number; to: number } | null;
  /** The call ends after this much silence in a row; 0: never. */
  maxMs: number;
}

/**
 * Times the callee's silence: armed when the agent has finished a turn, reset when the
 * callee says anything. `onDue` fires when a reminder is due or the maximum is reached;
 * a reminder turn re-arms without restarting the count, so the maximum is silence in a row.
 */
export class SilenceWatch {
  private since: number | null = null;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly settings: SilenceSettings,
    private readonly onDue: () => void,
    private readonly now: () => number,
  ) {}

  arm(): void {
    this.clear();
    this.since ??= this.now();
    const { reminderMs, maxMs } = this.settings;
    if (reminderMs) this.schedule(reminderMs.from + Math.random() * (reminderMs.to - reminderMs.from));
    if (maxMs > 0) this.schedule(this.since + maxMs - this.now());
  }

  reset(): void {
    this.clear();
    this.since = null;
  }

  /** Whether the silence has lasted the maximum. */
  exhausted(): boolean {
    return this.settings.maxMs > 0 && this.since !== null && this.now() - this.since >= this.settings.maxMs;
  }

  private schedule(ms: number): void {
    const timer = setTimeout(this.onDue, Math.max(0, ms));
    timer.unref();
    this.timers.push(timer);
  }

  private clear(): void {
    this.timers.forEach(clearTimeout);
    this.timers = [];
  }
}
