/** Where services read the time, so that windows, retries and timeouts are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
