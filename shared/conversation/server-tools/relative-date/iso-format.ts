import { formatIsoDateTime, formatUtcOffset, readClock, type TimeZone } from '../../time-zones';

const SECOND_MS = 1000;

// Values carry whole seconds: the fraction is dropped (floored, so a value never lies in the future).
const toWholeSecond = (instant: number): number => Math.floor(instant / SECOND_MS) * SECOND_MS;

/**
 * ISO-8601 with the offset `zone` has at `instant`, without milliseconds. Null when out of range,
 * or when the offset has seconds (local mean time, before a zone adopted standard time), which an
 * ISO-8601 offset cannot carry: written rounded, it would name another instant.
 */
export function formatWithOffset(instant: number, zone: TimeZone): string | null {
  if (!Number.isFinite(instant)) {
    return null;
  }
  const reading = readClock(zone, toWholeSecond(instant));
  if (reading === null || !Number.isInteger(reading.offsetMinutes)) {
    return null;
  }
  return formatIsoDateTime(reading, formatUtcOffset(reading.offsetMinutes));
}

/** ISO-8601 in UTC with a `Z`, without milliseconds; null when out of range. */
export function formatUtc(instant: number): string | null {
  if (!Number.isFinite(instant)) {
    return null;
  }
  const utc = new Date(toWholeSecond(instant));
  // The built-in writes years past 0000-9999 in ISO's expanded form (+010000, -000001) as well.
  return Number.isNaN(utc.getTime()) ? null : utc.toISOString().replace('.000Z', 'Z');
}
