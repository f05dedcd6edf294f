import { padDigits as pad } from './pad-digits';
import type { WallClock } from './wall-clock';

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
