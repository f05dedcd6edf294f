import { readClock } from './clock-reading';
import { padDigits as pad } from './pad-digits';
import type { TimeZone } from './time-zone';
import { formatUtcOffset } from './utc-offset';
import { englishWeekdayName } from './weekday';

/**
 * How a person would read the clock in `zone` at `instant`, to the minute and with the offset:
 * `Friday 2026-01-16 10:00 UTC-05:00`. The model reads this in front of every utterance, so it
 * names the weekday (models miscount them) and stays byte-identical to what luxon's
 * `cccc yyyy-MM-dd HH:mm 'UTC'ZZ` wrote. Null when the clock cannot be read.
 */
export function formatClockStamp(zone: TimeZone, instant: number): string | null {
  const reading = readClock(zone, instant);
  if (reading === null) return null;
  const date = `${pad(reading.year, 4)}-${pad(reading.month, 2)}-${pad(reading.day, 2)}`;
  const time = `${pad(reading.hour, 2)}:${pad(reading.minute, 2)}`;
  const offset = formatUtcOffset(reading.offsetMinutes);
  return `${englishWeekdayName(reading)} ${date} ${time} UTC${offset}`;
}
