import { type TimeZone, timeZoneOf } from '../../../shared/conversation/time-zones';

/** The zone named `name`, for tests that name real zones (throws on a typo). */
export function zoneNamed(name: string): TimeZone {
  const zone = timeZoneOf(name);
  if (zone === null) throw new Error(`${name} is not a time zone`);
  return zone;
}
