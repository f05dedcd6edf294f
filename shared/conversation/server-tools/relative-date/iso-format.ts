import { DateTime, type IANAZone } from 'luxon';

const SECOND_MS = 1000;

// Values carry whole seconds: the fraction is dropped (floored, so a value never lies in the future).
const toWholeSecond = (instant: number): number => Math.floor(instant / SECOND_MS) * SECOND_MS;

/**
 * ISO-8601 with the offset `zone` has at `instant`, without milliseconds. Null when out of range,
 * or when the offset has seconds (local mean time, before a zone adopted standard time), which an
 * ISO-8601 offset cannot carry: written rounded, it would name another instant.
 */
export function formatWithOffset(instant: number, zone: IANAZone): string | null {
  if (!Number.isFinite(instant)) {
    return null;
  }
  const local = DateTime.fromMillis(toWholeSecond(instant), { zone });
  if (!local.isValid || !Number.isInteger(local.offset)) {
    return null;
  }
  return local.toISO({ suppressMilliseconds: true });
}

/** ISO-8601 in UTC with a `Z`, without milliseconds; null when out of range. */
export function formatUtc(instant: number): string | null {
  if (!Number.isFinite(instant)) {
    return null;
  }
  const utc = DateTime.fromMillis(toWholeSecond(instant), { zone: 'utc' });
  return utc.isValid ? utc.toISO({ suppressMilliseconds: true }) : null;
}
