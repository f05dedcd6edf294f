import { DateTime, type IANAZone } from 'luxon';
import type { PlainDate } from './plain-date';

/** The local reading of a clock in some zone, e.g. 2026-03-08 02:30 in New York. */
export interface WallClock extends PlainDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

/** The reference moment of a resolution: the instant and how the node's clock reads it. */
export interface ZonedNow {
  readonly zone: IANAZone;
  readonly instant: number;
  readonly wallClock: WallClock;
  readonly today: PlainDate;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** How the clock in `zone` reads at `instant` (epoch milliseconds). */
export function wallClockAt(instant: number, zone: IANAZone): WallClock {
  const local = DateTime.fromMillis(instant, { zone });
  return {
    year: local.year,
    month: local.month,
    day: local.day,
    hour: local.hour,
    minute: local.minute,
    second: local.second,
    millisecond: local.millisecond,
  };
}

/** The reference moment `instant` as seen from `zone`. */
export function zonedNow(instant: number, zone: IANAZone): ZonedNow {
  const wallClock = wallClockAt(instant, zone);
  const today = { year: wallClock.year, month: wallClock.month, day: wallClock.day };
  return { zone, instant, wallClock, today };
}

/** The wall clock read as if it were UTC: plain arithmetic on clock readings, no zone rules. */
export function naiveMilliseconds(wall: WallClock): number {
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
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
export function wallClockToInstant(wall: WallClock, zone: IANAZone): number {
  const naive = naiveMilliseconds(wall);
  if (!Number.isFinite(naive)) {
    return Number.NaN;
  }
  // Real zones change offset at most once within a day on either side of a reading.
  const offsetBefore = zone.offset(naive - DAY_MS);
  const offsetAfter = zone.offset(naive + DAY_MS);
  // The same offset on both sides: no change near this reading, so it maps to one instant (the
  // common case, and a third of the zone lookups, which dominate the date context's cost).
  if (offsetBefore === offsetAfter) return naive - offsetBefore * MINUTE_MS;
  const candidateOffsets = [offsetBefore, zone.offset(naive), offsetAfter];
  const matching = candidateOffsets
    .map((offset) => naive - offset * MINUTE_MS)
    .filter((instant) => naive - instant === zone.offset(instant) * MINUTE_MS);
  if (matching.length > 0) {
    return Math.min(...matching);
  }
  // In a gap, reading the clock with the offset in force before the change lands after the gap.
  return naive - offsetBefore * MINUTE_MS;
}

/** The first instant of the calendar day `date` in `zone` (later than midnight if DST skips it). */
export function startOfDay(date: PlainDate, zone: IANAZone): number {
  return wallClockToInstant({ ...date, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
}

/** The instant at which the clock in `zone` reads `hour`:00 on `date` (DST as in wallClockToInstant). */
export function instantAtHour(date: PlainDate, hour: number, zone: IANAZone): number {
  return wallClockToInstant({ ...date, hour, minute: 0, second: 0, millisecond: 0 }, zone);
}
