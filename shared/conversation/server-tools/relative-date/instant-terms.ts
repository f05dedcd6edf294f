import { parseCount } from './number-words';
import { addDays } from './plain-date';
import type { Resolution } from './resolution';
import { wallClockToInstant, type ZonedNow } from './zoned-time';

/** The instant terms as the tool lists them (N stands for a whole number). */
export const INSTANT_TERMS: readonly string[] = ['now', 'in_N_minutes', 'in_N_hours', 'in_N_days'];

const MILLISECONDS_PER_UNIT = { minute: 60_000, hour: 3_600_000 } as const;

// The count is digits or number words; parseCount keeps it within range.
const IN_N_UNITS = /^in_([a-z0-9_]+?)_(minute|min|hour|hr|day)s?$/;

/**
 * Resolves `now` and `in_N_minutes|hours|days` (N in digits or words: in_twenty_minutes,
 * in_an_hour) to one instant. Minutes and hours are elapsed time (in 2 hours across a DST change
 * is still 120 minutes later); days are calendar days (in 1 day is the same clock time tomorrow,
 * even when tomorrow has 23 or 25 hours). Null for any other term.
 */
export function resolveInstantTerm(term: string, now: ZonedNow): Resolution | null {
  if (term === 'now') {
    return { kind: 'instant', instant: now.instant };
  }
  const match = IN_N_UNITS.exec(term);
  if (match === null) {
    return null;
  }
  const count = parseCount(match[1] ?? '');
  const unit = match[2];
  if (count === null) {
    return null;
  }
  if (unit === 'day') {
    const day = addDays(now.today, count);
    return { kind: 'instant', instant: wallClockToInstant({ ...now.wallClock, ...day }, now.zone) };
  }
  const unitMs =
    unit === 'hour' || unit === 'hr' ? MILLISECONDS_PER_UNIT.hour : MILLISECONDS_PER_UNIT.minute;
  return { kind: 'instant', instant: now.instant + count * unitMs };
}
