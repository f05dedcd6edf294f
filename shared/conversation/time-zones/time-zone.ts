/**
 * An IANA zone known to be valid, with the formatter that reads its clocks. Building an
 * Intl.DateTimeFormat costs far more than using one, and a date context reads a zone's clock
 * thousands of times, so each zone gets one formatter for the life of the process.
 */
export interface TimeZone {
  /** The name as given, e.g. `America/New_York` (Intl also accepts `america/new_york`). */
  readonly name: string;
  /** en-US, 24-hour clock, with the era so that years before 1 read right. */
  readonly clockFormatter: Intl.DateTimeFormat;
}

// Names come from requests: the cache stops growing past this (a name is still checked and
// served, just not kept), so odd spellings cannot grow a container's memory without bound.
const MAX_CACHED_ZONES = 1000;
const cachedZones = new Map<string, TimeZone>();

const clockFormatterOf = (name: string): Intl.DateTimeFormat | null => {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    // RangeError: Intl knows no such zone.
    return null;
  }
};

/** The zone named `name`, or null when Intl knows no such zone (the only validity check there is). */
export function timeZoneOf(name: string): TimeZone | null {
  const cached = cachedZones.get(name);
  if (cached !== undefined) return cached;
  if (typeof name !== 'string' || name === '') return null;
  const clockFormatter = clockFormatterOf(name);
  if (clockFormatter === null) return null;
  const zone = { name, clockFormatter };
  if (cachedZones.size < MAX_CACHED_ZONES) cachedZones.set(name, zone);
  return zone;
}

/** Whether `name` is a time zone Intl knows: an IANA name (any case), or `UTC`, `+01:00`... */
export function isValidTimeZone(name: string): boolean {
  return timeZoneOf(name) !== null;
}
