import { addDays, dayOfWeek, type PlainDate } from './plain-date';
import { type Resolution, severalDays } from './resolution';
import type { ZonedNow } from './zoned-time';

const SATURDAY = 6;
const SUNDAY = 0;
const DAYS_PER_WEEK = 7;

/** The multi-day terms, in the order the tool lists them. */
export const SPAN_TERMS: readonly string[] = [
  'this_week',
  'next_week',
  'last_week',
  'this_weekend',
  'next_weekend',
  'last_weekend',
];

const WEEK_SHIFTS: ReadonlyMap<string, number> = new Map([
  ['this', 0],
  ['next', 1],
  ['last', -1],
]);

/** Sunday to Saturday of the week that contains `today` (weeks start on Sunday). */
const weekOf = (today: PlainDate): PlainDate[] => {
  const sunday = addDays(today, -dayOfWeek(today));
  return Array.from({ length: DAYS_PER_WEEK }, (_, index) => addDays(sunday, index));
};

/**
 * The Saturday of "this weekend": the weekend in progress on Saturday and Sunday (so on a Sunday
 * it was yesterday), otherwise the coming one.
 */
const currentWeekendSaturday = (today: PlainDate): PlainDate => {
  const weekday = dayOfWeek(today);
  if (weekday === SUNDAY) {
    return addDays(today, -1);
  }
  return addDays(today, SATURDAY - weekday);
};

/**
 * this_week / next_week / last_week: the seven days Sunday to Saturday of the current, following
 * or previous week. this_weekend: Saturday and Sunday of the weekend in progress or coming, but
 * only the days not yet over, so asked on a Sunday it is that Sunday alone (a past Saturday is of
 * no use to a forecast or an agenda). next_weekend and last_weekend: the whole weekend a week
 * after or before that one. Null for any other term.
 */
export function resolveSpanTerm(term: string, now: ZonedNow): Resolution | null {
  const match = /^(this|next|last)_(week|weekend)$/.exec(term);
  const shift = match?.[1] === undefined ? undefined : WEEK_SHIFTS.get(match[1]);
  if (match === null || shift === undefined) {
    return null;
  }
  if (match[2] === 'week') {
    return severalDays(weekOf(addDays(now.today, shift * DAYS_PER_WEEK)));
  }
  if (shift === 0 && dayOfWeek(now.today) === SUNDAY) {
    // Still a list (kind `days`), so this_weekend always has the same shape.
    return severalDays([now.today]);
  }
  const saturday = addDays(currentWeekendSaturday(now.today), shift * DAYS_PER_WEEK);
  return severalDays([saturday, addDays(saturday, 1)]);
}
