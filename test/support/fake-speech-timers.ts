import type { SpeechTimers } from '../../shared/adapters/speech/speech-deadline';

/** Timers that fire only when the test says: a deadline is tested without waiting for it. */
export class FakeSpeechTimers implements SpeechTimers {
  readonly #pending = new Map<number, { callback: () => void; delayMs: number }>();
  #next = 0;

  set(callback: () => void, delayMs: number): unknown {
    this.#next += 1;
    this.#pending.set(this.#next, { callback, delayMs });
    return this.#next;
  }

  clear(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  /** The delays of the timers still pending. */
  get pendingDelays(): readonly number[] {
    return [...this.#pending.values()].map((timer) => timer.delayMs);
  }

  /** Fires every pending timer, as if their time had come. */
  fireAll(): void {
    const due = [...this.#pending.values()];
    this.#pending.clear();
    for (const timer of due) timer.callback();
  }

  /** Fires the pending timers of at most `delayMs`, as if that much time had passed. */
  fireUpTo(delayMs: number): void {
    const due = [...this.#pending].filter(([, timer]) => timer.delayMs <= delayMs);
    for (const [handle] of due) this.#pending.delete(handle);
    for (const [, timer] of due) timer.callback();
  }
}
