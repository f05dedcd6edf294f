import { readClock } from './clock-reading';
import type { TimeZone } from './time-zone';
import type { WallClock } from './wall-clock';
import { englishWeekdayName } from './weekday';

/**
 * How times are written: ISO 8601 date-times and offsets for nodes, and the clock stamp the model
 * reads in front of every utterance.
 */

/** `value` in at least `width` digits, zero-filled, with a minus sign in front when negative. */
const pad = (value: number, width = 2): string =>
  value < 0 ? `-${String(-value).padStart(width, '0')}` : String(value).padStart(width, '0');

// Four digits for 0000-9999, else ISO's expanded form, a sign and six digits (`+010000`,
// `-000001`), as Date.prototype.toISOString writes them.
const formatIsoYear = (year: number): string =>
  year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;

/** `HH:mm:ss` of a clock reading. */
export const formatClockTime = (wall: WallClock): string =>
  `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;

/**
 * `YYYY-MM-DDTHH:mm:ss` followed by `suffix` (an offset such as `-05:00`, or `Z`), with the
 * milliseconds only when there are some: the values nodes receive carry whole seconds.
 */
export function formatIsoDateTime(wall: WallClock, suffix: string): string {
  const date = `${formatIsoYear(wall.year)}-${pad(wall.month)}-${pad(wall.day)}`;
  const fraction = wall.millisecond === 0 ? '' : `.${pad(wall.millisecond, 3)}`;
  return `${date}T${formatClockTime(wall)}${fraction}${suffix}`;
}

/**
 * An offset in minutes east of UTC as ISO 8601 writes it: `+05:30`, `-03:30`, `+00:00`. A
 * fraction of a minute (local mean time) is cut off, as luxon did; callers that must name the
 * exact instant refuse such offsets instead of writing them.
 */
export function formatUtcOffset(offsetMinutes: number): string {
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const hours = Math.trunc(Math.abs(offsetMinutes / 60));
  const minutes = Math.trunc(Math.abs(offsetMinutes % 60));
  return `${sign}${pad(hours)}:${pad(minutes)}`;
}

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
