import { addDays, dayOfWeek } from './plain-date';
import { type Resolution, singleDay } from './resolution';
import { weekdayFromName } from './weekday-names';
import type { ZonedNow } from './zoned-time';

/** Terms naming one day at a fixed distance from today (a Map: no prototype keys can match). */
const DAY_OFFSETS: ReadonlyMap<string, number> = new Map([
  ['today', 0],
  ['tomorrow', 1],
  ['yesterday', -1],
  ['day_after_tomorrow', 2],
  ['day_before_yesterday', -2],
]);

/** The day terms that take no weekday, in the order the tool lists them. */
export const DAY_TERMS: readonly string[] = [...DAY_OFFSETS.keys()];

const DAYS_PER_WEEK = 7;

/**
 * Days from today forward to the next `weekday`, strictly after today: asked on a Monday,
 * next_monday is a week later, never today.
 */
const daysUntilNext = (today: number, weekday: number): number =>
  (weekday - today + DAYS_PER_WEEK) % DAYS_PER_WEEK || DAYS_PER_WEEK;

/** Days back from today to the last `weekday`, strictly before today. */
const daysSinceLast = (today: number, weekday: number): number =>
  (today - weekday + DAYS_PER_WEEK) % DAYS_PER_WEEK || DAYS_PER_WEEK;

/**
 * Resolves today, tomorrow, yesterday, day_after_tomorrow, day_before_yesterday, next_<weekday>
 * and last_<weekday> to one calendar day of the node's zone; null for any other term.
 */
export function resolveDayTerm(term: string, now: ZonedNow): Resolution | null {
  const offset = DAY_OFFSETS.get(term);
  if (offset !== undefined) {
    return singleDay(addDays(now.today, offset));
  }
  const match = /^(next|last)_([a-z]+)$/.exec(term);
  const weekday = match?.[2] === undefined ? null : weekdayFromName(match[2]);
  if (match === null || weekday === null) {
    return null;
  }
  const todayWeekday = dayOfWeek(now.today);
  return match[1] === 'next'
    ? singleDay(addDays(now.today, daysUntilNext(todayWeekday, weekday)))
    : singleDay(addDays(now.today, -daysSinceLast(todayWeekday, weekday)));
}
