/** The local reading of a clock in some zone, e.g. 2026-03-08 02:30 in New York. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

/**
 * The wall clock read as if it were UTC: plain arithmetic on clock readings, no zone rules. An
 * offset is the distance between this and the instant; NaN outside the representable range.
 */
export function naiveMilliseconds(wall: WallClock): number {
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
}
