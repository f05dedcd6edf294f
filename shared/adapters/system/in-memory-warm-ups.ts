import type { WarmUpMemory } from '../../ports/warm-up-memory';

/** Command sets a container remembers; a node registers one, a home a few. */
const CAPACITY = 256;

/**
 * The warm-ups of this container, in its memory (docs/decisions/2026-11-24-default-node-warm-up.md:
 * what the model server holds is not ours to see, and a shared record in DynamoDB would only say
 * that another container warmed it). The oldest go first past the capacity.
 */
export class InMemoryWarmUps implements WarmUpMemory {
  readonly #warmedAt = new Map<string, number>();

  lastWarmedAt(commandSetHash: string): number | null {
    return this.#warmedAt.get(commandSetHash) ?? null;
  }

  remember(commandSetHash: string, atMs: number): void {
    // Deleted first, so the insertion order is the order of the last warm-ups.
    this.#warmedAt.delete(commandSetHash);
    this.#warmedAt.set(commandSetHash, atMs);
    for (const oldest of this.#warmedAt.keys()) {
      if (this.#warmedAt.size <= CAPACITY) break;
      this.#warmedAt.delete(oldest);
    }
  }
}
