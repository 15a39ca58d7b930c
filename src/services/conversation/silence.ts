import { SYSTEM_TIMERS, type Timers } from '../shared/clock';

/** The agent's silence settings, in ms (the agent stores seconds). */
export interface SilenceSettings {
  /** A reminder after a random wait in this range; null: no reminders. */
  reminderMs: { from: number; to: number } | null;
  /** The call ends after this much silence in a row; 0: never. */
  maxMs: number;
}

/**
 * How long past the expected end of the agent's voice the watch waits for the transport to
 * report that it stopped; then it counts from there: a lost `agentSpeaking off` must not keep
 * a silent call open for ever (docs/calls.md, "Playback").
 */
export const PLAYBACK_REPORT_GRACE_MS = 15_000;

/**
 * Times the callee's silence from the end of the agent's playback: armed when the agent has
 * finished a turn, with the moment its voice stops (an estimate, or now), reset when the callee
 * says anything. `onDue` fires when a reminder is due or the maximum is reached; a reminder turn
 * re-arms without restarting the count, so the maximum is silence in a row. While the agent's
 * voice plays (`pause`) nothing is due; once the transport reports it stopped
 * (`playbackEnded`), that moment replaces the estimate.
 */
export class SilenceWatch {
  /** When the silence in a row began; null: none is counted. */
  private since: number | null = null;
  /** When the agent's last playback ended, from which the next reminder is timed. */
  private from = 0;
  /** `since` and `from` are estimates of the last arm, to be replaced by the reported end. */
  private sinceEstimated = false;
  private fromEstimated = false;
  private paused = false;
  private timers: unknown[] = [];

  constructor(
    private readonly settings: SilenceSettings,
    private readonly onDue: () => void,
    private readonly now: () => number,
    private readonly clock: Timers = SYSTEM_TIMERS,
  ) {}

  /** The agent's turn is over and its voice stops at `end` (an estimate when `estimated`): silence counts from then. */
  arm(end: number = this.now(), estimated = false): void {
    if (this.since === null) {
      this.since = end;
      this.sinceEstimated = estimated;
    }
    this.from = end;
    this.fromEstimated = estimated;
    this.schedule();
  }

  /** The agent's voice is playing: nothing is due until it stops, or until the grace for its report is over. */
  pause(): void {
    this.paused = true;
    this.clear();
    const now = this.now();
    this.after(Math.max(this.from, now) + PLAYBACK_REPORT_GRACE_MS - now, () => this.playbackEnded());
  }

  /** The agent's voice stopped (or the turn it played is still running: then the turn's end arms). */
  resume(): void {
    this.paused = false;
  }

  /** The transport reports the agent's voice stopped at `at`: the estimate of the last arm gives way to it. */
  playbackEnded(at: number = this.now()): void {
    this.paused = false;
    if (this.since === null) return;
    if (this.sinceEstimated) this.since = at;
    if (this.fromEstimated) this.from = at;
    this.sinceEstimated = this.fromEstimated = false;
    this.schedule();
  }

  /** The callee spoke: no silence is counted (the agent's voice, if playing, still is). */
  reset(): void {
    this.clear();
    this.since = null;
  }

  /** Whether the silence has lasted the maximum. */
  exhausted(): boolean {
    return this.settings.maxMs > 0 && this.since !== null && this.now() - this.since >= this.settings.maxMs;
  }

  private schedule(): void {
    this.clear();
    if (this.paused || this.since === null) return;
    const { reminderMs, maxMs } = this.settings;
    const now = this.now();
    if (reminderMs) this.after(this.from + reminderMs.from + Math.random() * (reminderMs.to - reminderMs.from) - now);
    if (maxMs > 0) this.after(this.since + maxMs - now);
  }

  private after(ms: number, run: () => void = this.onDue): void {
    this.timers.push(this.clock.setTimeout(run, Math.max(0, ms)));
  }

  private clear(): void {
    this.timers.forEach((t) => this.clock.clearTimeout(t));
    this.timers = [];
  }
}
