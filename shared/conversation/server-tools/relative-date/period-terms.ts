import { addDays, type PlainDate } from './plain-date';
import type { Resolution } from './resolution';
import { instantAtHour, type ZonedNow } from './zoned-time';

/** Local hours of each part of the day; night runs into the next day. */
const PERIOD_HOURS = {
  morning: { start: 6, end: 12 },
  afternoon: { start: 12, end: 17 },
  evening: { start: 17, end: 21 },
  night: { start: 21, end: 6 },
} as const;

export type PartOfDay = keyof typeof PERIOD_HOURS;

/** The period terms other than tonight and last_night: which day, which part of it. */
const PERIOD_TERMS: ReadonlyMap<string, { readonly dayOffset: number; readonly part: PartOfDay }> =
  new Map([
    ['this_morning', { dayOffset: 0, part: 'morning' }],
    ['this_afternoon', { dayOffset: 0, part: 'afternoon' }],
    ['this_evening', { dayOffset: 0, part: 'evening' }],
    ['tomorrow_morning', { dayOffset: 1, part: 'morning' }],
    ['tomorrow_afternoon', { dayOffset: 1, part: 'afternoon' }],
    ['tomorrow_evening', { dayOffset: 1, part: 'evening' }],
    ['tomorrow_night', { dayOffset: 1, part: 'night' }],
    ['yesterday_morning', { dayOffset: -1, part: 'morning' }],
    ['yesterday_afternoon', { dayOffset: -1, part: 'afternoon' }],
    ['yesterday_evening', { dayOffset: -1, part: 'evening' }],
  ]);

/** Every period term, in the order the tool lists them. */
export const PART_OF_DAY_TERMS: readonly string[] = [
  'tonight',
  'last_night',
  ...PERIOD_TERMS.keys(),
];

/** Hour before which the night that began yesterday evening is still "tonight". */
const NIGHT_END_HOUR = PERIOD_HOURS.night.end;

/** The part of the day `part` on `day` in the node's zone, as a period named after `day`. */
export function partOfDay(day: PlainDate, part: PartOfDay, now: ZonedNow): Resolution {
  const hours = PERIOD_HOURS[part];
  const endDay = hours.end > hours.start ? day : addDays(day, 1);
  return {
    kind: 'period',
    day,
    start: instantAtHour(day, hours.start, now.zone),
    end: instantAtHour(endDay, hours.end, now.zone),
  };
}

/**
 * Resolves the parts of the day: morning 06-12, afternoon 12-17, evening 17-21, night 21-06 of
 * the next day. Between midnight and 06:00 the night in progress (begun yesterday at 21:00) is
 * both `tonight` and `last_night`, as people say at 2 am; otherwise tonight is today's night and
 * last_night yesterday's. Null for any other term.
 */
export function resolvePeriodTerm(term: string, now: ZonedNow): Resolution | null {
  if (term === 'tonight' || term === 'last_night') {
    const nightInProgress = now.wallClock.hour < NIGHT_END_HOUR;
    const dayOffset = term === 'last_night' || nightInProgress ? -1 : 0;
    return partOfDay(addDays(now.today, dayOffset), 'night', now);
  }
  const period = PERIOD_TERMS.get(term);
  return period === undefined
    ? null
    : partOfDay(addDays(now.today, period.dayOffset), period.part, now);
}
