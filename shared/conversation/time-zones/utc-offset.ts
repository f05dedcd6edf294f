import { padDigits } from './pad-digits';

/**
 * An offset in minutes east of UTC as ISO 8601 writes it: `+05:30`, `-03:30`, `+00:00`. A
 * fraction of a minute (local mean time) is cut off, as luxon did; callers that must name the
 * exact instant refuse such offsets instead of writing them.
 */
export function formatUtcOffset(offsetMinutes: number): string {
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const hours = Math.trunc(Math.abs(offsetMinutes / 60));
  const minutes = Math.trunc(Math.abs(offsetMinutes % 60));
  return `${sign}${padDigits(hours)}:${padDigits(minutes)}`;
}
