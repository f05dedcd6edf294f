/**
 * A small deterministic generator of numbers in [0, 1) (xorshift32): the model writers make the
 * same file for the same seed, so a test's model is the same on every machine.
 */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}
