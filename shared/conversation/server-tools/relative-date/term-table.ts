import { resolveDayTerm } from './day-terms';
import { resolveInstantTerm } from './instant-terms';
import { resolvePeriodTerm } from './period-terms';
import type { Resolution } from './resolution';
import { resolveSpanTerm } from './span-terms';
import type { ZonedNow } from './zoned-time';

/** Resolves a normalized named term (today, this_weekend, tonight, in_20_minutes...); null if it is none. */
export function resolveNamedTerm(term: string, now: ZonedNow): Resolution | null {
  return (
    resolveDayTerm(term, now) ??
    resolveSpanTerm(term, now) ??
    resolvePeriodTerm(term, now) ??
    resolveInstantTerm(term, now)
  );
}
