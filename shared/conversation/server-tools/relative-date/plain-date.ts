import { DateTime } from 'luxon';

/** A calendar day with no zone attached: what "tomorrow" names before it is placed in a zone. */
export interface PlainDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const WEEKDAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

// Calendar arithmetic runs in UTC, where every day has 24 hours, so no DST can shift a day.
const toUtcDateTime = (date: PlainDate): DateTime => DateTime.utc(date.year, date.month, date.day);

/** The calendar day `days` after `date` (a negative count goes back). */
export function addDays(date: PlainDate, days: number): PlainDate {
  const moved = toUtcDateTime(date).plus({ days });
  return { year: moved.year, month: moved.month, day: moved.day };
}

/** Day of the week with weeks starting on Sunday: 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: PlainDate): number {
  return toUtcDateTime(date).weekday % 7;
}

/** The English name of the day of the week, e.g. `Saturday`. */
export function weekdayName(date: PlainDate): string {
  return WEEKDAY_NAMES[dayOfWeek(date)] ?? '';
}

/** Whole days from `from` to `to` (negative when `to` comes first). */
export function daysBetween(from: PlainDate, to: PlainDate): number {
  return Math.round(toUtcDateTime(to).diff(toUtcDateTime(from), 'days').days);
}

/** Every day from `first` to `last`, both included; empty when `last` comes before `first`. */
export function daysFromTo(first: PlainDate, last: PlainDate): PlainDate[] {
  const count = daysBetween(first, last) + 1;
  return Array.from({ length: Math.max(count, 0) }, (_, index) => addDays(first, index));
}

/** `YYYY-MM-DD`, e.g. 2026-01-17. */
export function formatPlainDate(date: PlainDate): string {
  const pad = (value: number, width: number): string => String(value).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}
