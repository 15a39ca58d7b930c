/**
 * Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`
 * with `what` in the message. For state changed by background jobs.
 */
export async function waitFor<T>(what: string | (() => string), probe: () => Promise<T | undefined>, timeoutMs = 15_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
