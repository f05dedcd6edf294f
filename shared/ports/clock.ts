/** Time enters the core only through this port, so tests can fix it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Ids enter the core only through this port, so tests can predict them. */
export interface IdGenerator {
  /** A new unique id starting with `prefix` (e.g. `call_`). */
  next(prefix: string): string;
  /**
   * True for random ids, with no order to keep: another thread may draw its own from the platform
   * instead of asking this generator (the isolation worker does). A test's predictable ids leave
   * it out: they are drawn here, in order.
   */
  readonly random?: boolean;
}

/** Randomness enters the core only through this port, so tests can choose it. */
export interface Randomness {
  /** A number in [0, 1), as `Math.random` gives. */
  next(): number;
}
