import { DateTime, type IANAZone } from 'luxon';

const SECOND_MS = 1000;
// 0000-01-01T00:00:00Z (Date.UTC would read year 0 as 1900).
const FIRST_FOUR_DIGIT_YEAR_MS = -62_167_219_200_000;
const LAST_FOUR_DIGIT_YEAR_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

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
  const whole = toWholeSecond(instant);
  // Years 0000-9999 as the built-in writes them (fast: a date context writes a thousand of them).
  if (whole >= FIRST_FOUR_DIGIT_YEAR_MS && whole <= LAST_FOUR_DIGIT_YEAR_MS) {
    return new Date(whole).toISOString().replace('.000Z', 'Z');
  }
  const utc = DateTime.fromMillis(whole, { zone: 'utc' });
  return utc.isValid ? utc.toISO({ suppressMilliseconds: true }) : null;
}
