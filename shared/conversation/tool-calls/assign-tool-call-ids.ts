import type { IdGenerator } from '../../ports/clock';
import type { ExtractedToolCall } from './extracted-reply';
import type { ToolCallCandidate } from './tool-call-candidate';

/** Draws from the generator before falling back to suffixes, in case it repeats itself. */
const maximumDraws = 8;

/**
 * Gives every call an id unique within the reply: the model's id where it gave one, first come
 * first served; a fresh `call_` id for a missing, empty or repeated one. Fresh ids never collide
 * with an id the model gave to another call of the same reply.
 */
export function assignToolCallIds(
  candidates: readonly ToolCallCandidate[],
  source: ExtractedToolCall['source'],
  ids: IdGenerator,
): ExtractedToolCall[] {
  const taken = new Set<string>();
  const kept = candidates.map(({ id }) => {
    if (id === null || taken.has(id)) return null;
    taken.add(id);
    return id;
  });
  return candidates.map((candidate, index) => ({
    id: kept[index] ?? freshId(ids, taken),
    name: candidate.name,
    source,
    arguments: candidate.arguments,
  }));
}

function freshId(ids: IdGenerator, taken: Set<string>): string {
  let id = ids.next('call_');
  for (let draw = 1; taken.has(id) && draw < maximumDraws; draw += 1) id = ids.next('call_');
  const drawn = id;
  for (let suffix = 2; taken.has(id); suffix += 1) id = `${drawn}_${suffix}`;
  taken.add(id);
  return id;
}
