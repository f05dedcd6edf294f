/**
 * The DateContext nodes fetch (GET /api/v0/generate/date-context, api.md), built from the same
 * resolvers as resolve_relative_date, so "tomorrow" or "next_friday" can never mean one day to the
 * node and another to the model. Steps:
 * 1. read the clock in the node's zone;
 * 2. resolve each named term (tomorrow, this_weekend, next_monday...) with the tool's resolvers;
 * 3. add the calendar spans the tool has no term for (months, years) from the same day arithmetic;
 * 4. write every day as `YYYY-MM-DD` with the UTC instant of its local midnight.
 */
import {
  formatClockTime,
  isDaylightSavingTime,
  isoWeekday,
  shortZoneName,
  timeZoneOf,
} from '../../time-zones';
import { formatUtc, formatWithOffset } from './iso-format';
import { addDays, daysFromTo, formatPlainDate, type PlainDate, weekdayName } from './plain-date';
import { resolveNamedTerm } from './term-table';
import { WEEKDAY_TERMS } from './weekday-names';
import { startOfDay, type ZonedNow, zonedNow } from './zoned-time';

export interface DateInfo {
  readonly date: string;
  readonly utc_start_of_day: string;
}
export type DayInfo = DateInfo & { readonly day: string };

export interface DateContext {
  readonly current: DateInfo & {
    readonly date_iso: string;
    readonly time: string;
    readonly datetime: string;
    readonly weekday: string;
    /** ISO 8601: Monday 1 ... Sunday 7. */
    readonly weekday_number: number;
  };
  readonly relative_dates: Readonly<Record<(typeof RELATIVE_TERMS)[number], DateInfo>>;
  readonly weekend: Readonly<Record<(typeof WEEKEND_TERMS)[number], readonly DayInfo[]>>;
  readonly weeks: Readonly<Record<(typeof WEEK_TERMS)[number], readonly DayInfo[]>>;
  readonly months: Readonly<
    Record<'this_month' | 'next_month' | 'last_month', readonly DateInfo[]>
  >;
  readonly years: Readonly<Record<'this_year' | 'next_year' | 'last_year', readonly DateInfo[]>>;
  readonly weekdays: Readonly<Record<string, DateInfo>>;
  readonly timezone: {
    readonly user_timezone: string;
    readonly current_timezone: string;
    readonly is_dst: boolean;
  };
}

const RELATIVE_TERMS = [
  'tomorrow',
  'yesterday',
  'day_after_tomorrow',
  'day_before_yesterday',
] as const;
const WEEKEND_TERMS = ['this_weekend', 'next_weekend', 'last_weekend'] as const;
const WEEK_TERMS = ['this_week', 'next_week', 'last_week'] as const;
// Monday first, as api.md lists them.
const WEEKDAYS_FROM_MONDAY = [...WEEKDAY_TERMS.slice(1), ...WEEKDAY_TERMS.slice(0, 1)];
const SHIFTS = { this: 0, next: 1, last: -1 } as const;

/**
 * The date context of `now` (epoch milliseconds) in the IANA zone `timezone`; null when the zone
 * is not a valid IANA name or the instant cannot be written.
 */
export function buildDateContext(timezone: string, now: number): DateContext | null {
  const zone = timeZoneOf(timezone);
  if (zone === null) return null;
  const reference = zonedNow(now, zone);
  const nowWithOffset = formatWithOffset(now, zone);
  if (nowWithOffset === null) return null;
  const info = (day: PlainDate): DateInfo => ({
    date: formatPlainDate(day),
    utc_start_of_day: formatUtc(startOfDay(day, zone)) ?? '',
  });
  const withDay = (day: PlainDate): DayInfo => ({ ...info(day), day: weekdayName(day) });
  const days = (term: string) => termDays(term, reference);
  const today = reference.today;
  return {
    current: {
      ...info(today),
      date_iso: formatWithOffset(startOfDay(today, zone), zone) ?? '',
      time: formatClockTime(reference.wallClock),
      datetime: nowWithOffset,
      weekday: weekdayName(today),
      weekday_number: isoWeekday(today),
    },
    relative_dates: byTerm(RELATIVE_TERMS, (term) => info(firstDay(days(term)))),
    weekend: byTerm(WEEKEND_TERMS, (term) => days(term).map(withDay)),
    weeks: byTerm(WEEK_TERMS, (term) => days(term).map(withDay)),
    months: byTerm(['this_month', 'next_month', 'last_month'], (term) =>
      monthDays(today, SHIFTS[shiftOf(term)]).map(info),
    ),
    years: byTerm(['this_year', 'next_year', 'last_year'], (term) =>
      yearDays(today.year + SHIFTS[shiftOf(term)]).map(info),
    ),
    weekdays: Object.fromEntries(
      (['next', 'last'] as const).flatMap((direction) =>
        WEEKDAYS_FROM_MONDAY.map((weekday) => {
          const term = `${direction}_${weekday}`;
          return [term, info(firstDay(days(term)))];
        }),
      ),
    ),
    timezone: {
      user_timezone: timezone,
      current_timezone: shortZoneName(zone, now) ?? timezone,
      is_dst: isDaylightSavingTime(zone, now),
    },
  };
}

/** The days a named term of resolve_relative_date stands for. */
function termDays(term: string, reference: ZonedNow): readonly PlainDate[] {
  const resolution = resolveNamedTerm(term, reference);
  if (resolution === null || (resolution.kind !== 'day' && resolution.kind !== 'days')) {
    throw new Error(`${term} is not a day term of resolve_relative_date`);
  }
  return resolution.days;
}

function firstDay(days: readonly PlainDate[]): PlainDate {
  const first = days[0];
  if (first === undefined) throw new Error('a day term resolved to no day');
  return first;
}

const shiftOf = (term: string): keyof typeof SHIFTS => term.split('_')[0] as keyof typeof SHIFTS;

function byTerm<Term extends string, Value>(
  terms: readonly Term[],
  value: (term: Term) => Value,
): Record<Term, Value> {
  return Object.fromEntries(terms.map((term) => [term, value(term)])) as Record<Term, Value>;
}

/** Every day of the month `shift` months from the one holding `today`. */
function monthDays(today: PlainDate, shift: number): PlainDate[] {
  const monthIndex = today.year * 12 + (today.month - 1) + shift;
  const start = {
    year: Math.floor(monthIndex / 12),
    month: (((monthIndex % 12) + 12) % 12) + 1,
    day: 1,
  };
  // The day before the first of the next month is the last of this one.
  return daysFromTo(start, addDays({ ...start, month: start.month + 1 }, -1));
}

/** Every day of `year`. */
function yearDays(year: number): PlainDate[] {
  return daysFromTo({ year, month: 1, day: 1 }, { year, month: 12, day: 31 });
}
