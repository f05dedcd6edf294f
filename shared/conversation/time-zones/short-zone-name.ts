import type { TimeZone } from './time-zone';

// A second formatter per zone, built only for the zones whose name is asked for (the date
// context); kept beside the zone so it lives exactly as long as the zone's cache entry.
const nameFormatters = new WeakMap<TimeZone, Intl.DateTimeFormat>();

const nameFormatterOf = (zone: TimeZone): Intl.DateTimeFormat => {
  let formatter = nameFormatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone.name, timeZoneName: 'short' });
    nameFormatters.set(zone, formatter);
  }
  return formatter;
};

/**
 * The short name of the offset `zone` has at `instant` as en-US writes it: `EST`, `EDT`, `UTC`,
 * or `GMT+2` where English has no abbreviation. Fixed to en-US so that what a node is told does
 * not depend on the locale of the host. Null when the instant is outside what a Date can hold.
 */
export function shortZoneName(zone: TimeZone, instant: number): string | null {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return null;
  const part = nameFormatterOf(zone)
    .formatToParts(date)
    .find(({ type }) => type === 'timeZoneName');
  return part?.value ?? null;
}
