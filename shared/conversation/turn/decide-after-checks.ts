/**
 * What the turn does once a reply's calls are checked, decided from what the checks found. It is
 * the last decision of `step`, which carries it out; each rule is a named predicate below.
 */

/** What the checks of one reply found, counted: all the decision reads. */
export interface CheckedReply {
  /** Node calls whose arguments failed their checks. */
  readonly invalid: number;
  /** Valid node calls the node would get now, those held from an earlier reply included. */
  readonly kept: number;
  /** Server-tool calls to run. */
  readonly serverCalls: number;
  /** Calls refused by a limit: server calls per reply, argument bytes, pending, result room. */
  readonly refused: number;
  /** Of the refused calls, those refused because their results would not fit in the exchange. */
  readonly refusedForRoom: number;
  /** Calls past the per-reply limit, dropped unread. */
  readonly dropped: number;
  /** The turn may still ask the model again (the retry budget is not spent). */
  readonly retriesLeft: boolean;
}

/** The turn's next move after the checks. */
export type AfterChecks =
  /** Invalid calls the model may not retry: ask the user about the first invalid parameter. */
  | { readonly type: 'ask_user' }
  /** Only refusals, some for want of room, and no retry left: the user hears there is no room. */
  | { readonly type: 'say_no_room' }
  /** Only refusals by the other limits and no retry left: the user hears the fallback answer. */
  | { readonly type: 'give_up' }
  /**
   * Valid calls, the others refused for room alone: asking again cannot make room, so what fits
   * goes to the node and the rest is recorded as refused for the model to read later.
   */
  | { readonly type: 'hand_over_what_fits' }
  /** Valid calls, within every limit or with no retry left to fix the rest: to the node. */
  | { readonly type: 'hand_over' }
  /**
   * Server tools ran, or calls were invalid or refused and a retry is left: their results and
   * what to fix go back to the model.
   */
  | { readonly type: 'ask_model_again' };

/** Some calls failed their checks and the model may not be asked to fix them. */
const invalidBeyondRetries = (checked: CheckedReply): boolean =>
  checked.invalid > 0 && !checked.retriesLeft;

/** Nothing of the reply can run or go to the node: a limit refused every call it made. */
const onlyRefusals = (checked: CheckedReply): boolean =>
  checked.kept === 0 && checked.serverCalls === 0 && checked.refused > 0;

/** A limit refused or dropped some of the reply's calls. */
const overLimits = (checked: CheckedReply): boolean => checked.refused > 0 || checked.dropped > 0;

/** Every call a limit turned away was turned away for want of room for its result. */
const onlyRoomRefused = (checked: CheckedReply): boolean =>
  checked.refused === checked.refusedForRoom && checked.dropped === 0;

/** The reply can end the turn for the node: valid calls, no server tool, nothing invalid. */
const readyForNode = (checked: CheckedReply): boolean =>
  checked.kept > 0 && checked.serverCalls === 0 && checked.invalid === 0;

/** The turn's next move after the checks of one reply (see `AfterChecks`). */
export function decideAfterChecks(checked: CheckedReply): AfterChecks {
  if (invalidBeyondRetries(checked)) return { type: 'ask_user' };
  // Every call was refused by a limit and the model was told: asking again cannot help.
  if (onlyRefusals(checked) && !checked.retriesLeft) {
    return { type: checked.refusedForRoom > 0 ? 'say_no_room' : 'give_up' };
  }
  if (readyForNode(checked)) {
    if (overLimits(checked) && onlyRoomRefused(checked)) return { type: 'hand_over_what_fits' };
    if (!overLimits(checked) || !checked.retriesLeft) return { type: 'hand_over' };
  }
  return { type: 'ask_model_again' };
}
