import {
  naiveMilliseconds,
  offsetMinutesAt,
  readClock,
  type TimeZone,
  type WallClock,
} from '../../time-zones';
import type { PlainDate } from './plain-date';

/** The reference moment of a resolution: the instant and how the node's clock reads it. */
export interface ZonedNow {
  readonly zone: TimeZone;
  readonly instant: number;
  readonly wallClock: WallClock;
  readonly today: PlainDate;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const UNREADABLE: WallClock = {
  year: Number.NaN,
  month: Number.NaN,
  day: Number.NaN,
  hour: Number.NaN,
  minute: Number.NaN,
  second: Number.NaN,
  millisecond: Number.NaN,
};

/**
 * How the clock in `zone` reads at `instant` (epoch milliseconds); every field NaN outside the
 * representable range, so arithmetic on it stays NaN and formatting refuses it.
 */
export function wallClockAt(instant: number, zone: TimeZone): WallClock {
  const reading = readClock(zone, instant);
  if (reading === null) return UNREADABLE;
  const { year, month, day, hour, minute, second, millisecond } = reading;
  return { year, month, day, hour, minute, second, millisecond };
}

/** The reference moment `instant` as seen from `zone`. */
export function zonedNow(instant: number, zone: TimeZone): ZonedNow {
  const wallClock = wallClockAt(instant, zone);
  const today = { year: wallClock.year, month: wallClock.month, day: wallClock.day };
  return { zone, instant, wallClock, today };
}

/**
 * The instant at which the clock in `zone` reads `wall`, with DST handled on purpose (the
 * "compatible" rule of Temporal and RFC 5545):
 * - in an overlap (the hour repeated when clocks go back) the earlier instant wins, the first
 *   time the clock shows that reading;
 * - in a gap (the hour skipped when clocks go forward) the reading moves forward by the length of
 *   the gap, so 02:30 on a spring-forward night in New York becomes 03:30 EDT.
 * NaN when the reading is outside the representable range.
 */
export function wallClockToInstant(wall: WallClock, zone: TimeZone): number {
  const naive = naiveMilliseconds(wall);
  if (!Number.isFinite(naive)) {
    return Number.NaN;
  }
  // Real zones change offset at most once within a day on either side of a reading.
  const offsetBefore = offsetMinutesAt(zone, naive - DAY_MS);
  const offsetAfter = offsetMinutesAt(zone, naive + DAY_MS);
  // The same offset on both sides: no change near this reading, so it maps to one instant (the
  // common case, and a third of the zone lookups, which dominate the date context's cost).
  if (offsetBefore === offsetAfter) return naive - offsetBefore * MINUTE_MS;
  const candidateOffsets = [offsetBefore, offsetMinutesAt(zone, naive), offsetAfter];
  const matching = candidateOffsets
    .map((offset) => naive - offset * MINUTE_MS)
    .filter((instant) => naive - instant === offsetMinutesAt(zone, instant) * MINUTE_MS);
  if (matching.length > 0) {
    return Math.min(...matching);
  }
  // In a gap, reading the clock with the offset in force before the change lands after the gap.
  return naive - offsetBefore * MINUTE_MS;
}

/** The first instant of the calendar day `date` in `zone` (later than midnight if DST skips it). */
export function startOfDay(date: PlainDate, zone: TimeZone): number {
  return wallClockToInstant({ ...date, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
}

/** The instant at which the clock in `zone` reads `hour`:00 on `date` (DST as in wallClockToInstant). */
export function instantAtHour(date: PlainDate, hour: number, zone: TimeZone): number {
  return wallClockToInstant({ ...date, hour, minute: 0, second: 0, millisecond: 0 }, zone);
}
