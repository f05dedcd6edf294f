import { expect } from 'vitest';
import {
  type RelativeDateResult,
  type ResolvedRelativeDate,
  resolveRelativeDate,
} from '../../../../shared/conversation/server-tools/relative-date';

/** Epoch milliseconds of an ISO-8601 instant written with its offset, e.g. 2026-01-16T10:30:00-05:00. */
export const at = (isoWithOffset: string): number => {
  const instant = Date.parse(isoWithOffset);
  if (Number.isNaN(instant)) {
    throw new Error(`bad instant in a test table: ${isoWithOffset}`);
  }
  return instant;
};

/** Resolves `term` in `timezone` with the clock fixed at `nowIso`. */
export const resolveAt = (term: string, timezone: string, nowIso: string): RelativeDateResult =>
  resolveRelativeDate(term, { timezone, now: at(nowIso) });

/** The result, which the test expects to be resolved. */
export const expectResolved = (result: RelativeDateResult): ResolvedRelativeDate => {
  if (!result.resolved) {
    expect.fail(`expected "${result.term}" to resolve, got: ${result.message}`);
  }
  return result;
};

/** UTC form (no milliseconds) of an ISO value with offset: computed by the platform, not by the code under test. */
export const utcOf = (isoWithOffset: string): string =>
  new Date(at(isoWithOffset)).toISOString().replace('.000Z', 'Z');

/** The local start of `date` at `offset` (e.g. `+13:00`), as the tool writes it. */
export const midnight = (date: string, offset: string): string => `${date}T00:00:00${offset}`;
