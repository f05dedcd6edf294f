/** What a step tells its worker about the registration it runs under. */
export interface RegistrationCrossing {
  /** Whether the step carries the registration's source: false when the worker holds it. */
  readonly send: boolean;
  /** What the worker drops first, so that it holds at most the pool's capacity. */
  readonly forget: readonly string[];
}

/**
 * The registrations (stored command sources, by their content hash) one isolation worker holds,
 * as the pool keeps account of them. The real node's is about 20 KB, so a step carries it only
 * when its worker does not hold it. The pool decides what the worker keeps and drops (the most
 * recently used `capacity`), and the worker does as told, so the two never disagree; a fresh
 * worker (after a kill) starts with an account of its own, empty.
 */
export class HeldRegistrations {
  /** In the order of their last use, oldest first. */
  private readonly hashes = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** Records a step under `hash`, and says what crosses with it. */
  use(hash: string): RegistrationCrossing {
    if (this.hashes.delete(hash)) {
      this.hashes.add(hash);
      return { send: false, forget: [] };
    }
    const forget: string[] = [];
    for (const held of this.hashes) {
      if (this.hashes.size - forget.length < this.capacity) break;
      forget.push(held);
    }
    for (const dropped of forget) this.hashes.delete(dropped);
    this.hashes.add(hash);
    return { send: true, forget };
  }
}
