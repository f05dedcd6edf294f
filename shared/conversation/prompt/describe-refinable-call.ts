import type { RefinableCall } from '../refinement/refinable-call';

const LINE_START = '[Last call with refinable parameters: ';

/**
 * The turn-context line naming the last refinable call, as one line whatever its arguments hold:
 * `[Last call with refinable parameters: music({"action":"play"}); refinable: volume_level. ...]`.
 */
export function describeRefinableCall(call: RefinableCall): string {
  const shown = `${call.name}(${JSON.stringify(call.arguments)})`;
  return `${LINE_START}${shown}; refinable: ${call.refinableParameters.join(', ')}. If this \
request adjusts it, call ${call.name} again with these arguments, changing only what the user \
changed.]`;
}

/** Matches the line `describeRefinableCall` writes, with its newline, at the start of a text. */
export const REFINABLE_CALL_LINE = /^\[Last call with refinable parameters: [^\n]*\]\n/;
