import type { IdGenerator } from '../../ports/clock';
import type { ExtractedToolCall } from './extracted-reply';
import type { ToolCallCandidate } from './tool-call-candidate';

/** Draws from the generator before falling back to suffixes, in case it repeats itself. */
const maximumDraws = 8;

/**
 * An id a node can always send back: printable ASCII without spaces (what `continue` accepts),
 * and short, as OpenAI's own are; never with a stop or a percent sign, so never of the form of an
 * entity id (`lock.garage_door`, `lock%2Egarage_door`), which the node must get only when it
 * listed it. Anything else the model chose is replaced.
 */
const USABLE_ID = /^[\x21-\x24\x26-\x2D\x2F-\x7E]{1,64}$/;

/**
 * Gives every call an id unique within the reply and unlike every id in `used` (the turn's and
 * the conversation's earlier calls): the model's id where it gave a usable, unused one, first come
 * first served; a fresh `call_` id for a missing, unusable or repeated one. A model that reuses an
 * id across a retry therefore never hands the node two calls with one id.
 */
export function assignToolCallIds(
  candidates: readonly ToolCallCandidate[],
  source: ExtractedToolCall['source'],
  ids: IdGenerator,
  used: ReadonlySet<string> = new Set(),
): ExtractedToolCall[] {
  const taken = new Set(used);
  const kept = candidates.map(({ id }) => {
    if (id === null || !USABLE_ID.test(id) || taken.has(id)) return null;
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
