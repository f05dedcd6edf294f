import { looseEntityKey } from './entity-id-shape';
import type { KnownEntities } from './known-entities';

/** How many of the closest ids a retry message names. */
export const CLOSEST_ENTITY_COUNT = 3;
/** Below this an id shares a letter pair or two by chance ("le" of apple_tv and kettle). */
const MINIMUM_SIMILARITY = 0.2;

/**
 * The ids of `entities` closest to `value`, best first: the Dice coefficient of their loose
 * keys' letter pairs, one linear pass per id (the list is bounded), ties in the node's order.
 * Ids that share only a chance pair or two with `value` are never named.
 */
export function closestEntities(
  value: string,
  entities: KnownEntities,
  count: number = CLOSEST_ENTITY_COUNT,
): string[] {
  const wanted = letterPairs(looseEntityKey(value));
  return entities.ids
    .map((id, index) => ({ id, index, score: dice(wanted, letterPairs(looseEntityKey(id))) }))
    .filter((candidate) => candidate.score >= MINIMUM_SIMILARITY)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .slice(0, count)
    .map((candidate) => candidate.id);
}

function letterPairs(key: string): Map<string, number> {
  const pairs = new Map<string, number>();
  for (let index = 0; index + 1 < key.length; index += 1) {
    const pair = key.slice(index, index + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  return pairs;
}

function dice(left: ReadonlyMap<string, number>, right: ReadonlyMap<string, number>): number {
  let shared = 0;
  let total = 0;
  for (const count of left.values()) total += count;
  for (const count of right.values()) total += count;
  for (const [pair, count] of left) shared += Math.min(count, right.get(pair) ?? 0);
  return total === 0 ? 0 : (2 * shared) / total;
}
