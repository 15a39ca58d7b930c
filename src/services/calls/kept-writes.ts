import type { Logger } from '../../logger';

/** First and longest wait before a kept write is tried again. */
const RETRY_MS = { first: 500, max: 30_000 };
/** Most writes kept at once: past it a new one is dropped (logged), so an outage cannot exhaust memory. */
const MAX_KEPT = 10_000;

interface Kept {
  write: () => Promise<void>;
  timer: NodeJS.Timeout | null;
  waitMs: number;
}

/**
 * Writes the database refused (an outage) that cannot be asked for again: a provider's call sid,
 * a provider callback (Twilio retries neither). Each is kept in this process's memory, by key,
 * and tried again (after 0.5 s, doubling up to 30 s, and whenever `flush` runs) until it
 * succeeds. A process that stops loses them: the call sweep's reconciliation with the
 * provider makes up for that (docs/calls.md, "Outages").
 */
export class KeptWrites {
  private readonly kept = new Map<string, Kept>();
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  /**
   * Runs `write`; if it fails, keeps it under `key` and tries it again until it succeeds. An
   * error `final` says is an answer rather than an outage (a call that does not exist) is
   * thrown, and the write not kept.
   */
  async run(key: string, write: () => Promise<void>, context: Record<string, unknown>, final: (err: unknown) => boolean = () => false): Promise<void> {
    try {
      await write();
    } catch (err) {
      if (final(err)) throw err;
      if (this.kept.size >= MAX_KEPT) {
        this.logger.error({ err, ...context }, `${this.what} not stored and not kept: too many kept`);
        return;
      }
      this.logger.warn({ err, ...context }, `${this.what} not stored; kept and stored again`);
      this.kept.set(key, { write, timer: null, waitMs: RETRY_MS.first });
      this.schedule(key);
    }
  }

  has(key: string): boolean {
    return this.kept.has(key);
  }

  /** Tries every kept write now. */
  async flush(): Promise<void> {
    await Promise.all([...this.kept.keys()].map((key) => this.retry(key)));
  }

  /** Stops trying (the process is stopping). */
  stop(): void {
    this.stopped = true;
    for (const kept of this.kept.values()) if (kept.timer) clearTimeout(kept.timer);
  }

  private schedule(key: string): void {
    const kept = this.kept.get(key);
    if (!kept || this.stopped) return;
    if (kept.timer) clearTimeout(kept.timer);
    kept.timer = setTimeout(() => void this.retry(key), kept.waitMs);
    kept.waitMs = Math.min(kept.waitMs * 2, RETRY_MS.max);
  }

  private async retry(key: string): Promise<void> {
    const kept = this.kept.get(key);
    if (!kept) return;
    if (kept.timer) clearTimeout(kept.timer);
    kept.timer = null;
    try {
      await kept.write();
      this.kept.delete(key);
    } catch (err) {
      this.logger.debug({ err, key }, `${this.what} still not stored`);
      this.schedule(key);
    }
  }
}
