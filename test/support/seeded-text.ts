/**
 * `length` letters drawn from `alphabet` by a fixed linear congruential generator: a text with no
 * pattern to it, the same on every run and machine (a test or a bench row must not vary).
 */
export function seededText(length: number, alphabet: string, seed: number): string {
  let state = seed;
  return Array.from({ length }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return alphabet[(state >> 16) % alphabet.length] ?? '';
  }).join('');
}
