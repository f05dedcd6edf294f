import { isValidTimeZone } from '../time-zones';

/**
 * The zone a node's dates are resolved in. Server-side context wins: a zone from the request is
 * used only when the registry has none, and only if it is a real IANA zone; else UTC.
 */
export function effectiveTimezone(registered: string | null, requested: string | null): string {
  if (registered !== null && isValidTimeZone(registered)) return registered;
  if (requested !== null && isValidTimeZone(requested)) return requested;
  return 'UTC';
}
