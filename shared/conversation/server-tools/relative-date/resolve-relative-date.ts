/**
 * The resolve_relative_date server tool. Steps:
 * 1. check the zone and the reference instant (a bad one is an answer, never an exception);
 * 2. normalize the term and look it up among the named terms (today, this_weekend, tonight...);
 * 3. otherwise read it as a free phrase with chrono, in the node's zone;
 * 4. format the result, or answer with the accepted terms when nothing matched.
 */
import { timeZoneOf } from '../../time-zones';
import { ACCEPTED_TERMS } from './accepted-terms';
import { formatResolution } from './format-resolution';
import { resolveFreePhrase } from './free-phrase';
import { normalizeTerm } from './normalize-term';
import type { RelativeDateContext, RelativeDateResult } from './relative-date-result';
import { resolveNamedTerm } from './term-table';
import { zonedNow } from './zoned-time';

/** Longer terms are refused: a date is a few words, and a parser should not chew on essays. */
export const MAX_TERM_LENGTH = 200;
/** Epoch milliseconds beyond which no date can be represented (ECMAScript's own limit). */
const MAX_EPOCH_MS = 8.64e15;

/** The message when something unexpected went wrong; tests assert it never appears. */
export const INTERNAL_FAILURE_MESSAGE =
  'The term could not be resolved because of an internal error.';

const unresolved = (term: string, message: string): RelativeDateResult => ({
  resolved: false,
  term,
  message,
  acceptedTerms: ACCEPTED_TERMS,
});

const unknownTermMessage = (term: string): string =>
  `"${term}" is not a relative date this tool understands. Use one of the accepted terms ` +
  '(spaces or underscores alike; N is a whole number) or a phrase such as "next Friday at 3pm", ' +
  '"in 20 minutes" or "March 3rd".';

const resolveChecked = (
  term: string,
  echoedTerm: string,
  context: RelativeDateContext,
): RelativeDateResult => {
  const { timezone, now } = context;
  const zone = typeof timezone === 'string' ? timeZoneOf(timezone) : null;
  if (zone === null) {
    return unresolved(echoedTerm, `"${String(timezone)}" is not a valid IANA time zone.`);
  }
  if (typeof now !== 'number' || !Number.isFinite(now) || Math.abs(now) > MAX_EPOCH_MS) {
    return unresolved(echoedTerm, 'The reference time is not a valid instant.');
  }
  if (term.length > MAX_TERM_LENGTH) {
    return unresolved(echoedTerm, `The term is longer than ${MAX_TERM_LENGTH} characters.`);
  }
  const reference = zonedNow(now, zone);
  const request = { term: echoedTerm, timezone, zone };
  const normalized = normalizeTerm(term);
  const named = normalized === '' ? null : resolveNamedTerm(normalized, reference);
  if (named !== null) {
    return formatResolution(named, { ...request, label: normalized });
  }
  const phrase = resolveFreePhrase(term, reference);
  if (phrase !== null) {
    const label = `"${phrase.matchedText}"`;
    return formatResolution(phrase.resolution, { ...request, label });
  }
  return unresolved(echoedTerm, unknownTermMessage(echoedTerm));
};

/**
 * Resolves a relative date term or free phrase in the node's IANA zone, DST included. Never
 * throws: an unknown term, an invalid zone or an unusable instant comes back as `resolved: false`
 * with a message and the accepted terms.
 */
export function resolveRelativeDate(
  term: string,
  context: RelativeDateContext,
): RelativeDateResult {
  const text = typeof term === 'string' ? term : '';
  const echoedTerm = text.slice(0, MAX_TERM_LENGTH);
  try {
    return resolveChecked(text, echoedTerm, context);
  } catch {
    // The tool runs inside the model's turn: a bug here must cost one answer, not the turn.
    return unresolved(echoedTerm, INTERNAL_FAILURE_MESSAGE);
  }
}
