/**
 * The prompts a model server keeps evaluated (llama.cpp's slot cache and its prompt cache, vLLM's
 * prefix cache): token sequences, most recent first. Pure: every change returns a new cache.
 */
export type PrefixCache = readonly (readonly number[])[];

/** How many leading tokens `a` and `b` share. */
export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a[index] === b[index]) index += 1;
  return index;
}

/** The longest prefix of `prompt` that some cached sequence starts with. */
export function cachedPrefixLength(cache: PrefixCache, prompt: readonly number[]): number {
  let longest = 0;
  for (const entry of cache) longest = Math.max(longest, commonPrefixLength(entry, prompt));
  return longest;
}

/**
 * The cache after evaluating `tokens` (a prompt and what was generated after it): it goes first;
 * an entry it extends is dropped (anything that matched it matches `tokens` as far), and the
 * least recent ones go past `capacity`.
 */
export function rememberTokens(
  cache: PrefixCache,
  tokens: readonly number[],
  capacity: number,
): PrefixCache {
  if (capacity <= 0) return [];
  const kept = cache.filter((entry) => commonPrefixLength(entry, tokens) < entry.length);
  return [tokens, ...kept].slice(0, capacity);
}
