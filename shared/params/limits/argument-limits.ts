import { displayPath } from '../validation/issues-from-errors';
import { makeIssue } from '../validation/make-issue';
import type { ValidationIssue } from '../validation/validation-issue';
import { jsonExcess } from './json-excess';
import { ARGUMENT_LIMITS } from './limits';

const EXPECTED = {
  bytes: `arguments of at most ${ARGUMENT_LIMITS.bytes} bytes of JSON`,
  depth: `values nested at most ${ARGUMENT_LIMITS.depth} levels deep`,
  arrayItems: `arrays of at most ${ARGUMENT_LIMITS.arrayItems} items`,
} as const;

/**
 * The issue of a call whose arguments break ARGUMENT_LIMITS, or null. Runs before normalization
 * and validation, so what they cost is bounded by the limits, not by what the model sent; the
 * issue never holds the value itself (writing it back could be as costly as reading it).
 */
export function argumentLimitIssue(command: string, args: unknown): ValidationIssue | null {
  const excess = jsonExcess(args, ARGUMENT_LIMITS);
  if (excess === null) return null;
  const received =
    excess.bound === 'bytes'
      ? `more than ${ARGUMENT_LIMITS.bytes} bytes`
      : excess.bound === 'depth'
        ? `values nested ${excess.found} levels deep`
        : `an array of ${excess.found} items`;
  return makeIssue({
    code: 'arguments_too_large',
    command,
    parameter: excess.path.length === 0 ? null : displayPath(excess.path),
    expected: EXPECTED[excess.bound],
    received,
    validValues: null,
    parameterType: null,
  });
}
