import type { Timing } from '../../shared/adapters/system/timing';
import { FIXED_NOW } from './engine-fixtures';

interface PendingSleep {
  readonly ms: number;
  readonly until: number;
  readonly resolve: () => void;
}

/**
 * A clock that moves only when told: `advance` by the test, or each `sleep` at once when
 * `instantSleeps` (the default), so a backoff of seconds takes no real time. Sleeps longer than
 * `longestInstantSleepMs` wait for `advance` even then: a call's deadline stays pending while the
 * short waits within it (the pace of a stream) end at once, each `overrunMs` late as a timer on a
 * busy machine is. Every sleep is recorded; `random` answers from `randoms` in turn (0.5 once
 * they are used up).
 */
export class FakeTiming implements Timing {
  readonly sleeps: number[] = [];
  #now: number;
  #pending: PendingSleep[] = [];
  #sleepStarted: (() => void)[] = [];
  readonly #randoms: number[];
  readonly #instantSleeps: boolean;
  readonly #longestInstantSleepMs: number;
  readonly #overrunMs: number;

  constructor(
    options: {
      start?: number;
      randoms?: number[];
      instantSleeps?: boolean;
      longestInstantSleepMs?: number;
      overrunMs?: number;
    } = {},
  ) {
    this.#now = options.start ?? FIXED_NOW;
    this.#randoms = [...(options.randoms ?? [])];
    this.#instantSleeps = options.instantSleeps ?? true;
    this.#longestInstantSleepMs = options.longestInstantSleepMs ?? Number.POSITIVE_INFINITY;
    this.#overrunMs = options.overrunMs ?? 0;
  }

  now(): number {
    return this.#now;
  }

  /** The same clock: on the fake, wall and monotonic time never part. */
  monotonic(): number {
    return this.#now;
  }

  random(): number {
    return this.#randoms.shift() ?? 0.5;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    for (const started of this.#sleepStarted.splice(0)) started();
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#instantSleeps && ms <= this.#longestInstantSleepMs) {
      this.#now += Math.max(0, ms) + this.#overrunMs;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const pending = { ms, until: this.#now + ms, resolve };
      this.#pending.push(pending);
      signal?.addEventListener('abort', () => {
        this.#pending = this.#pending.filter((other) => other !== pending);
        reject(signal.reason);
      });
    });
  }

  /** Moves the clock, waking every sleep that is then over. */
  advance(ms: number): void {
    this.#now += ms;
    const due = this.#pending.filter((pending) => pending.until <= this.#now);
    this.#pending = this.#pending.filter((pending) => pending.until > this.#now);
    for (const pending of due) pending.resolve();
  }

  /** How long each sleep still pending was asked to last, in the order they started. */
  get pendingDelays(): readonly number[] {
    return this.#pending.map((pending) => pending.ms);
  }

  /** Resolves when the code under test next starts a sleep (at once if one is pending). */
  sleeping(): Promise<void> {
    if (this.#pending.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.#sleepStarted.push(resolve));
  }
}
