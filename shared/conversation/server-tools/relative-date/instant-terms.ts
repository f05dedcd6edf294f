import { addDays } from './plain-date';
import { parseRelativeDuration, type RelativeDuration } from './relative-duration';
import type { Resolution } from './resolution';
import { wallClockToInstant, type ZonedNow } from './zoned-time';

/** The instant terms as the tool lists them (N stands for a whole number). */
export const INSTANT_TERMS: readonly string[] = ['now', 'in_N_minutes', 'in_N_hours', 'in_N_days'];

// in_<duration>, <duration>_from_now, <duration>_later (forward) and <duration>_ago (back).
const FORWARD = [/^in_(.+)$/, /^(.+)_from_now$/, /^(.+)_later$/];
const BACKWARD = [/^(.+)_ago$/];

const durationMatching = (term: string, patterns: readonly RegExp[]): RelativeDuration | null => {
  for (const pattern of patterns) {
    const duration = parseRelativeDuration(pattern.exec(term)?.[1] ?? '');
    if (duration !== null) {
      return duration;
    }
  }
  return null;
};

/** now moved by the duration: the calendar days first, at the same clock time, then elapsed time. */
const shift = (now: ZonedNow, duration: RelativeDuration, sign: 1 | -1): number => {
  const day = addDays(now.today, sign * duration.days);
  const sameClockTime = wallClockToInstant({ ...now.wallClock, ...day }, now.zone);
  return sameClockTime + sign * duration.milliseconds;
};

/**
 * Resolves `now` and spoken durations from now, `in_N_minutes|hours|days` and their kin
 * (in_twenty_minutes, in_an_hour_and_a_half, in_2_days_and_3_hours, 20_minutes_from_now,
 * 3_hours_ago) to one instant. Minutes and hours are elapsed time (in 2 hours across a DST change
 * is still 120 minutes later); days and weeks are calendar days (in 1 day is the same clock time
 * tomorrow, even when today has 23 or 25 hours). Null for any other term.
 */
export function resolveInstantTerm(term: string, now: ZonedNow): Resolution | null {
  if (term === 'now') {
    return { kind: 'instant', instant: now.instant };
  }
  const forward = durationMatching(term, FORWARD);
  if (forward !== null) {
    return { kind: 'instant', instant: shift(now, forward, 1) };
  }
  const backward = durationMatching(term, BACKWARD);
  return backward === null ? null : { kind: 'instant', instant: shift(now, backward, -1) };
}
