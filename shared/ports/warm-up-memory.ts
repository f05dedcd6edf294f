/**
 * Which prompt prefixes (command sets, by hash) this container warmed the model with, and when: a
 * start can then skip a warm-up the model server has just done, and warm one it has not.
 */
export interface WarmUpMemory {
  /** Epoch milliseconds of the last finished warm-up of `commandSetHash`; null if none is known. */
  lastWarmedAt(commandSetHash: string): number | null;
  remember(commandSetHash: string, atMs: number): void;
}
