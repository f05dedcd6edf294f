import type { Timing } from '../system/timing';

/** Every slot is taken and so is every place in the queue: answered at once, never a hang. */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
  constructor(
    readonly slots: number,
    readonly places: number,
  ) {
    super(`all ${slots} model slot(s) are busy and ${places} request(s) already wait`);
  }
}

/** The wait ended before a slot was free: the deadline passed or the caller gave up. */
export class QueueWaitEndedError extends Error {
  override readonly name = 'QueueWaitEndedError';
}

interface Waiter<Slot> {
  readonly resolve: (slot: Slot) => void;
}

/**
 * The model's context sequences handed out one per request in flight, and a bounded line of
 * requests beyond them, served in order. `pick` chooses among the free slots (the one whose
 * evaluated tokens share the longest prefix with the request's prompt).
 */
export class SequenceQueue<Slot> {
  readonly #free: Slot[];
  readonly #slots: number;
  readonly #places: number;
  readonly #waiting: Waiter<Slot>[] = [];
  readonly #timing: Timing;

  constructor(slots: readonly Slot[], places: number, timing: Timing) {
    this.#free = [...slots];
    this.#slots = slots.length;
    this.#places = places;
    this.#timing = timing;
  }

  get running(): number {
    return this.#slots - this.#free.length;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * A slot within `waitMs`; throws QueueFullError at once when no place is left, and
   * QueueWaitEndedError when `waitMs` passes or `signal` aborts first.
   */
  async acquire(
    waitMs: number,
    signal: AbortSignal | undefined,
    pick: (free: readonly Slot[]) => number = () => 0,
  ): Promise<Slot> {
    if (this.#free.length > 0 && this.#waiting.length === 0) {
      const index = Math.max(0, Math.min(pick(this.#free), this.#free.length - 1));
      return this.#free.splice(index, 1)[0] as Slot;
    }
    if (this.#waiting.length >= this.#places) throw new QueueFullError(this.#slots, this.#places);
    const stopWaiting = new AbortController();
    const waited = new Promise<Slot>((resolve) => {
      this.#waiting.push({ resolve });
    });
    const waiter = this.#waiting.at(-1) as Waiter<Slot>;
    const gaveUp = this.#timing
      .sleep(
        waitMs,
        signal === undefined ? stopWaiting.signal : AbortSignal.any([signal, stopWaiting.signal]),
      )
      .then(
        () => 'deadline' as const,
        () => 'aborted' as const,
      );
    const outcome = await Promise.race([waited, gaveUp]);
    if (typeof outcome === 'string') {
      const index = this.#waiting.indexOf(waiter);
      if (index >= 0) {
        this.#waiting.splice(index, 1);
        throw new QueueWaitEndedError(
          outcome === 'deadline'
            ? `no model slot was free within ${Math.round(waitMs)} ms`
            : 'the caller stopped waiting for a model slot',
        );
      }
      // Handed a slot in the same moment: take it.
      return waited;
    }
    stopWaiting.abort();
    return outcome;
  }

  /** Gives the slot back: to the first request in line, or to the free ones. */
  release(slot: Slot): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#free.push(slot);
    else next.resolve(slot);
  }
}
