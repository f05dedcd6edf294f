import { firstInexactNumber } from '../types/exact-numbers';
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

/** The issue of arguments whose text was too large to read at all (`received` says how large). */
export function argumentsTextTooLargeIssue(command: string, received: string): ValidationIssue {
  return makeIssue({
    code: 'arguments_too_large',
    command,
    parameter: null,
    expected: EXPECTED.bytes,
    received,
    validValues: null,
    parameterType: null,
  });
}

/** Longest number text an issue quotes: the model sent it, but it may be 300 digits. */
const QUOTED_DIGITS = 40;

/**
 * The issue of arguments holding a number a double cannot carry exactly (`1e400`, an integer
 * beyond 2^53; the parser kept its text), or null. A retry naming the parameter: the node never
 * gets null for Infinity or a rounded integer. Run after `argumentLimitIssue`: the walk is bounded.
 */
export function inexactNumberIssue(command: string, args: unknown): ValidationIssue | null {
  const found = firstInexactNumber(args);
  if (found === null) return null;
  const { path, source } = found;
  let text = source;
  if (text.length > QUOTED_DIGITS)
    text = `${text.slice(0, QUOTED_DIGITS)}… (${text.length} characters)`;
  return makeIssue({
    code: 'number_not_exact',
    command,
    parameter: path.length === 0 ? null : displayPath(path),
    expected: 'a number within ±1.7e308 and, for an integer, within ±9007199254740991 (2^53 - 1)',
    received: text,
    validValues: null,
    parameterType: null,
  });
}
