import { systemTiming, type Timing } from './timing';

/** Every slot is taken and so is every place in the queue: answered at once, never a hang. */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
  constructor(
    readonly slots: number,
    readonly places: number,
  ) {
    super(`all ${slots} slot(s) are busy and ${places} request(s) already wait`);
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
 * Slots of an engine in this process (the embedded model's context sequences, the recognizer's
 * one recognition at a time) handed out one per request in flight, and a bounded line of
 * requests beyond them, served in order: a full line is refused at once (a 503 with
 * `Retry-After`), never a hang. `pick` chooses among the free slots.
 */
export class SlotQueue<Slot> {
  readonly #free: Slot[];
  readonly #slots: number;
  readonly #places: number;
  readonly #waiting: Waiter<Slot>[] = [];
  readonly #timing: Timing;

  constructor(slots: readonly Slot[], places: number, timing: Timing = systemTiming) {
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
   * A slot within `waitMs` (null: for as long as `signal` lets it wait); throws QueueFullError at
   * once when no place is left, and QueueWaitEndedError when `waitMs` passes or `signal` aborts
   * first.
   */
  async acquire(
    waitMs: number | null,
    signal: AbortSignal | undefined,
    pick: (free: readonly Slot[]) => number = () => 0,
  ): Promise<Slot> {
    if (this.#free.length > 0 && this.#waiting.length === 0) {
      const index = Math.max(0, Math.min(pick(this.#free), this.#free.length - 1));
      return this.#free.splice(index, 1)[0] as Slot;
    }
    if (this.#waiting.length >= this.#places) throw new QueueFullError(this.#slots, this.#places);
    // A listener added to a signal already aborted never fires: such a request takes no place.
    if (signal?.aborted) throw new QueueWaitEndedError('the caller stopped waiting for a slot');
    const stopWaiting = new AbortController();
    const waited = new Promise<Slot>((resolve) => {
      this.#waiting.push({ resolve });
    });
    const waiter = this.#waiting.at(-1) as Waiter<Slot>;
    const either =
      signal === undefined ? stopWaiting.signal : AbortSignal.any([signal, stopWaiting.signal]);
    const gaveUp =
      waitMs === null
        ? new Promise<'aborted'>((resolve) =>
            either.addEventListener('abort', () => resolve('aborted'), { once: true }),
          )
        : this.#timing.sleep(waitMs, either).then(
            () => 'deadline' as const,
            () => 'aborted' as const,
          );
    const outcome = await Promise.race([waited, gaveUp]);
    stopWaiting.abort();
    if (typeof outcome === 'string') {
      const index = this.#waiting.indexOf(waiter);
      if (index >= 0) {
        this.#waiting.splice(index, 1);
        throw new QueueWaitEndedError(
          outcome === 'deadline'
            ? `no slot was free within ${Math.round(waitMs ?? 0)} ms`
            : 'the caller stopped waiting for a slot',
        );
      }
      // Handed a slot in the same moment: take it.
      return waited;
    }
    return outcome;
  }

  /** Gives the slot back: to the first request in line, or to the free ones. */
  release(slot: Slot): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#free.push(slot);
    else next.resolve(slot);
  }
}
