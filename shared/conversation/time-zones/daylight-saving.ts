import { offsetMinutesAt, readClock } from './clock-reading';
import type { TimeZone } from './time-zone';
import { naiveMilliseconds } from './wall-clock';

const newYearInstant = (year: number, month: number): number =>
  naiveMilliseconds({ year, month, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 });

/**
 * Whether `zone` keeps daylight saving time at `instant`: its offset is larger than the smaller of
 * its January and July offsets that year. Intl has no DST flag, and comparing offsets works in
 * both hemispheres (the summer month is the larger one either way), for zones whose winter
 * offset IANA calls "negative DST" (Europe/Dublin: Intl reports GMT in winter, IST in summer),
 * and for zones with no DST (both offsets equal: never). False when the clock cannot be read.
 */
export function isDaylightSavingTime(zone: TimeZone, instant: number): boolean {
  const reading = readClock(zone, instant);
  if (reading === null) return false;
  const january = offsetMinutesAt(zone, newYearInstant(reading.year, 1));
  const july = offsetMinutesAt(zone, newYearInstant(reading.year, 7));
  const standard = Math.min(january, july);
  return reading.offsetMinutes > standard;
}
