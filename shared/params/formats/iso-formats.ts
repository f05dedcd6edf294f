/**
 * Our string formats, stricter than ajv-formats' defaults, registered on every validator under the
 * JSON Schema format names:
 *
 * - `date`: `YYYY-MM-DD`, a real calendar day (2024-02-29 yes, 2026-02-29 no, 2026-02-30 no).
 * - `date-time`: RFC 3339 with uppercase `T` and `Z`:
 *   `YYYY-MM-DDTHH:MM:SS(.fraction)?(Z|±HH:MM)`. The zone is REQUIRED (a naive date-time is
 *   ambiguous: the node must not guess it), the day is a real one, hours 00-23, minutes and
 *   seconds 00-59 (no leap second), offsets within ±23:59.
 * - `time`: `HH:MM` or `HH:MM:SS(.fraction)?`, with an optional `Z` or `±HH:MM` offset.
 * - `duration`: an ISO-8601 duration: `PnYnMnDTnHnMnS` with at least one component (`P1D`,
 *   `PT90M`, `P1DT2H`), a decimal fraction on the smallest component only (`PT0.5S`), or weeks
 *   alone (`P2W`). Bare `P` and `PT` are rejected; `.` is the only decimal mark.
 *
 * Lowercase `t`/`z`, a space instead of `T` or missing seconds are not valid here; the lossless
 * normalization rewrites them before validation, so only the canonical form reaches a node.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))?$/;
const NUMBER = '(\\d+(?:\\.\\d+)?)';
const DURATION = new RegExp(
  `^P(?:${NUMBER}Y)?(?:${NUMBER}M)?(?:${NUMBER}W)?(?:${NUMBER}D)?(T(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`,
);
const WEEK_GROUP = 3;
const TIME_DESIGNATOR_GROUP = 5;
const DURATION_COMPONENT_GROUPS = [1, 2, 3, 4, 6, 7, 8] as const;

/** `YYYY-MM-DD` and a day that exists in the proleptic Gregorian calendar. */
export function isIsoDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  return isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** RFC 3339 date-time with a mandatory zone; see the module comment for the exact form. */
export function isIsoDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null) return false;
  return (
    isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3])) &&
    isClockTime(Number(match[4]), Number(match[5]), Number(match[6])) &&
    isOffset(match[7], match[8])
  );
}

/** `HH:MM` or `HH:MM:SS(.fraction)?` with an optional offset. */
export function isIsoTime(text: string): boolean {
  const match = TIME.exec(text);
  if (match === null) return false;
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  return isClockTime(Number(match[1]), Number(match[2]), seconds) && isOffset(match[4], match[5]);
}

/** An ISO-8601 duration with at least one component; see the module comment for the exact form. */
export function isIsoDuration(text: string): boolean {
  const match = DURATION.exec(text);
  if (match === null) return false;
  const present = DURATION_COMPONENT_GROUPS.filter((group) => match[group] !== undefined);
  const last = present.at(-1);
  if (last === undefined) return false;
  const timeDesignator = match[TIME_DESIGNATOR_GROUP];
  if (timeDesignator === 'T') return false;
  if (match[WEEK_GROUP] !== undefined && present.length > 1) return false;
  return present.every((group) => group === last || !match[group]?.includes('.'));
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isClockTime(hours: number, minutes: number, seconds: number): boolean {
  return hours <= 23 && minutes <= 59 && seconds <= 59;
}

function isOffset(hours: string | undefined, minutes: string | undefined): boolean {
  if (hours === undefined || minutes === undefined) return true;
  return Number(hours) <= 23 && Number(minutes) <= 59;
}

/** Our checks by JSON Schema format name, as registered with ajv. */
export const ISO_FORMATS: Readonly<Record<string, (text: string) => boolean>> = {
  date: isIsoDate,
  'date-time': isIsoDateTime,
  time: isIsoTime,
  duration: isIsoDuration,
};
