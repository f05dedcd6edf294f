import { setTimeout as sleepFor } from 'node:timers/promises';

/**
 * Time, chance and waiting as the adapters use them (deadlines, backoff, jitter, the
 * authentication floor, trace timestamps): injected, so tests drive them with a fake clock
 * instead of depending on how fast the machine is.
 */
export interface Timing {
  /** Milliseconds since the Unix epoch (the wall clock): timestamps, HTTP dates. */
  now(): number;
  /**
   * Milliseconds on a clock that never goes back (a wall clock set back would stretch a
   * deadline): deadlines and durations.
   */
  monotonic(): number;
  /** A number in [0, 1). */
  random(): number;
  /** Resolves after `ms`; rejects as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Node fires longer timers after 1 ms; a longer wait must not turn into that. */
const longestTimerMs = 2 ** 31 - 1;

export const systemTiming: Timing = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    sleepFor(
      Math.max(0, Math.min(ms, longestTimerMs)),
      undefined,
      signal === undefined ? {} : { signal },
    ),
};
