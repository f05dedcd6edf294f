import type { WallClock } from './wall-clock';

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

// Four digits for 0000-9999, else ISO's expanded form, a sign and six digits (`+010000`,
// `-000001`), as Date.prototype.toISOString writes them.
const formatIsoYear = (year: number): string =>
  year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;

/**
 * `YYYY-MM-DDTHH:mm:ss` followed by `suffix` (an offset such as `-05:00`, or `Z`), with the
 * milliseconds only when there are some: the values nodes receive carry whole seconds.
 */
export function formatIsoDateTime(wall: WallClock, suffix: string): string {
  const date = `${formatIsoYear(wall.year)}-${pad(wall.month)}-${pad(wall.day)}`;
  const time = `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
  const fraction = wall.millisecond === 0 ? '' : `.${pad(wall.millisecond, 3)}`;
  return `${date}T${time}${fraction}${suffix}`;
}
