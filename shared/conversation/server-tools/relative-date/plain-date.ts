import { englishWeekdayName } from '../../time-zones';
/** A calendar day with no zone attached: what "tomorrow" names before it is placed in a zone. */
export interface PlainDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

// Calendar arithmetic runs on UTC dates, where every day has 24 hours, so no DST can shift a day.
// The built-in Date, not a date library: a date context does this for a thousand days a request.
const DAY_MS = 86_400_000;

const utcMidnight = (date: PlainDate, extraDays = 0): Date => {
  const moment = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  moment.setUTCFullYear(date.year, date.month - 1, date.day + extraDays);
  return moment;
};

/** The calendar day `days` after `date` (a negative count goes back). */
export function addDays(date: PlainDate, days: number): PlainDate {
  const moved = utcMidnight(date, days);
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** Day of the week with weeks starting on Sunday: 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: PlainDate): number {
  return utcMidnight(date).getUTCDay();
}

/** The English name of the day of the week, e.g. `Saturday`. */
export function weekdayName(date: PlainDate): string {
  return englishWeekdayName(date);
}

/** Whole days from `from` to `to` (negative when `to` comes first). */
export function daysBetween(from: PlainDate, to: PlainDate): number {
  return Math.round((utcMidnight(to).getTime() - utcMidnight(from).getTime()) / DAY_MS);
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
