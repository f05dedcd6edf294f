import type { WallClock } from './wall-clock';

/** A calendar day: the part of a clock reading a weekday depends on. */
export type CalendarDay = Pick<WallClock, 'year' | 'month' | 'day'>;

const ENGLISH_WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

// From the day alone, on a UTC date where no zone rule can move it; the date part of a reading
// is what a weekday names, whatever the zone.
const sundayBasedWeekday = (date: CalendarDay): number => {
  const moment = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  moment.setUTCFullYear(date.year, date.month - 1, date.day);
  return moment.getUTCDay();
};

/** ISO 8601 day of the week of `date`: Monday 1 ... Sunday 7 (NaN for an unusable date). */
export function isoWeekday(date: CalendarDay): number {
  const weekday = sundayBasedWeekday(date);
  return weekday === 0 ? 7 : weekday;
}

/** The English name of the day of the week of `date`, e.g. `Friday` ('' for an unusable date). */
export function englishWeekdayName(date: CalendarDay): string {
  return ENGLISH_WEEKDAYS[sundayBasedWeekday(date)] ?? '';
}
