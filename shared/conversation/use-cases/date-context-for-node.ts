/**
 * generate/date-context:
 * 1. choose the zone as conversation/start does (the registry's, else the request's), except that
 *    a zone the node asks for by name and that does not exist is refused rather than replaced;
 * 2. build the date context there, with the resolvers of resolve_relative_date.
 */
import { InvalidTimezoneError } from '../errors';
import { buildDateContext, type DateContext } from '../server-tools/relative-date/date-context';
import { isValidTimeZone } from '../time-zones';
import type { CallingNode } from './conversation-dependencies';
import { effectiveTimezone } from './effective-timezone';

/** The date context of `now` (epoch milliseconds) for `node`, which asked for `requested`. */
export function dateContextForNode(
  node: CallingNode,
  requested: string | null,
  now: number,
): DateContext {
  const registered = node.timezone !== null && isValidTimeZone(node.timezone);
  if (!registered && requested !== null && !isValidTimeZone(requested)) {
    throw new InvalidTimezoneError(requested);
  }
  const context = buildDateContext(effectiveTimezone(node.timezone, requested), now);
  if (context === null) throw new InvalidTimezoneError(requested ?? 'UTC');
  return context;
}
