interface Entry<V> {
  readonly value: V;
  readonly cost: number;
  /** GreedyDual priority: the cache's inflation when last used, plus the cost to rebuild. */
  priority: number;
}

/**
 * A bounded cache that evicts by cost to rebuild, not only by age (GreedyDual-Size): each entry's
 * priority is the cache's inflation when it was last used plus its cost; the lowest goes, and the
 * inflation rises to it. A set that is expensive to compile outlives many cheap ones used after
 * it (hostile row 6: a 1.9 s compile evicted by 100 cheap sets made every turn recompile), yet
 * still ages out once unused for long enough. With equal costs it is least-recently-used: Map
 * keeps insertion order, every hit re-inserts, and ties go to the oldest.
 */
export class CostWeightedCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  #inflation = 0;

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    entry.priority = this.#inflation + entry.cost;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** `cost`: what rebuilding the value would cost, in any unit the caller keeps to (default 1). */
  set(key: string, value: V, cost = 1): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, cost, priority: this.#inflation + cost });
    while (this.#entries.size > this.capacity) this.#evictCheapest();
  }

  clear(): void {
    this.#entries.clear();
    this.#inflation = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  // A scan of at most `capacity` entries, once per insertion past it.
  #evictCheapest(): void {
    let cheapest: [string, Entry<V>] | null = null;
    for (const pair of this.#entries) {
      if (cheapest === null || pair[1].priority < cheapest[1].priority) cheapest = pair;
    }
    if (cheapest === null) return;
    this.#entries.delete(cheapest[0]);
    this.#inflation = cheapest[1].priority;
  }
}
