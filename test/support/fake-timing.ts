import type { Timing } from '../../shared/adapters/system/timing';
import { FIXED_NOW } from './engine-fixtures';

interface PendingSleep {
  readonly until: number;
  readonly resolve: () => void;
}

/**
 * A clock that moves only when told: `advance` by the test, or each `sleep` at once when
 * `instantSleeps` (the default), so a backoff of seconds takes no real time. Every sleep is
 * recorded; `random` answers from `randoms` in turn (0.5 once they are used up).
 */
export class FakeTiming implements Timing {
  readonly sleeps: number[] = [];
  #now: number;
  #pending: PendingSleep[] = [];
  #sleepStarted: (() => void)[] = [];
  readonly #randoms: number[];
  readonly #instantSleeps: boolean;

  constructor(options: { start?: number; randoms?: number[]; instantSleeps?: boolean } = {}) {
    this.#now = options.start ?? FIXED_NOW;
    this.#randoms = [...(options.randoms ?? [])];
    this.#instantSleeps = options.instantSleeps ?? true;
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
    if (this.#instantSleeps) {
      this.#now += Math.max(0, ms);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const pending = { until: this.#now + ms, resolve };
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

  /** Resolves when the code under test next starts a sleep (at once if one is pending). */
  sleeping(): Promise<void> {
    if (this.#pending.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.#sleepStarted.push(resolve));
  }
}
