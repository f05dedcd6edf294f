import type { TimeZone } from './time-zone';
import { naiveMilliseconds, type WallClock } from './wall-clock';

/** How a zone's clock reads at an instant, and the zone's offset from UTC then. */
export interface ClockReading extends WallClock {
  /**
   * Minutes east of UTC. Not always whole: before a zone adopted standard time it kept local mean
   * time, e.g. -4:56:02 in New York, which is -296.0333... minutes.
   */
  readonly offsetMinutes: number;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
// formatToParts types that carry a number, in the order of the fields they fill.
const NUMBER_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;
type NumberPart = (typeof NUMBER_PARTS)[number];

const isNumberPart = (type: string): type is NumberPart =>
  (NUMBER_PARTS as readonly string[]).includes(type);

/**
 * How the clock in `zone` reads at `instant` (epoch milliseconds); null when the instant, or its
 * reading, is outside what a Date can hold. One formatToParts call gives the fields, and the
 * offset is the distance between them read as UTC and the instant.
 */
export function readClock(zone: TimeZone, instant: number): ClockReading | null {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return null;
  const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  let beforeCommonEra = false;
  for (const { type, value } of zone.clockFormatter.formatToParts(date)) {
    if (isNumberPart(type)) fields[type] = Number.parseInt(value, 10);
    else if (type === 'era') beforeCommonEra = value === 'BC';
  }
  // Intl counts 1 BC, 2 BC...; ISO 8601 (and Date) count 0, -1...
  const year = beforeCommonEra ? 1 - fields.year : fields.year;
  // The fraction of a second is the instant's own: offsets are whole seconds.
  const withinSecond = ((instant % SECOND_MS) + SECOND_MS) % SECOND_MS;
  const wholeSeconds = instant - withinSecond;
  const asUtc = naiveMilliseconds({ ...fields, year, millisecond: 0 });
  if (!Number.isFinite(asUtc)) return null;
  return {
    ...fields,
    year,
    millisecond: Math.trunc(withinSecond),
    offsetMinutes: (asUtc - wholeSeconds) / MINUTE_MS,
  };
}

/** The offset of `zone` from UTC at `instant`, in minutes east; NaN when it cannot be read. */
export function offsetMinutesAt(zone: TimeZone, instant: number): number {
  return readClock(zone, instant)?.offsetMinutes ?? Number.NaN;
}
