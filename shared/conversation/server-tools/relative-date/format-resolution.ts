import type { TimeZone } from '../../time-zones';
import { ACCEPTED_TERMS } from './accepted-terms';
import { formatUtc, formatWithOffset } from './iso-format';
import { formatPlainDate, type PlainDate, weekdayName } from './plain-date';
import type { RelativeDateResult } from './relative-date-result';
import type { Resolution } from './resolution';
import { startOfDay, wallClockAt } from './zoned-time';

/** Who asked, and how to name the resolved term in the description. */
export interface FormatRequest {
  /** The term as the model sent it, echoed back. */
  readonly term: string;
  /** How the description names what was resolved, e.g. `tomorrow` or `"next friday at 3pm"`. */
  readonly label: string;
  readonly timezone: string;
  readonly zone: TimeZone;
}

/** The message when a value cannot be written (see formatWithOffset). */
export const OUT_OF_RANGE_MESSAGE =
  'The date cannot be written as ISO-8601: it is outside the supported range or predates standard time in this zone.';

const describeDay = (day: PlainDate): string => `${weekdayName(day)} ${formatPlainDate(day)}`;

const describeInstant = (instant: number, local: string, zone: TimeZone): string =>
  `${weekdayName(wallClockAt(instant, zone))} ${local}`;

const describeDays = (days: readonly PlainDate[], localStarts: readonly string[]): string => {
  const first = days[0];
  const last = days[days.length - 1];
  if (first === undefined || last === undefined) {
    return 'no day';
  }
  return days.length === 1
    ? `${describeDay(first)} (starts ${localStarts[0] ?? ''})`
    : `${days.length} days, ${describeDay(first)} to ${describeDay(last)}`;
};

/**
 * Turns a resolution into the tool's answer: ISO values with the zone's offset, each covered
 * day's start (or the instant) in UTC, start and end for periods, and a sentence for the model.
 * Resolved false when a value cannot be represented.
 */
export function formatResolution(
  resolution: Resolution,
  request: FormatRequest,
): RelativeDateResult {
  const { zone } = request;
  const instants =
    resolution.kind === 'instant'
      ? [resolution.instant]
      : resolution.kind === 'period'
        ? [startOfDay(resolution.day, zone)]
        : resolution.days.map((day) => startOfDay(day, zone));
  const values = instants.map((instant) => formatWithOffset(instant, zone));
  const utcValues = instants.map((instant) => formatUtc(instant));
  const start = resolution.kind === 'period' ? formatWithOffset(resolution.start, zone) : '';
  const end = resolution.kind === 'period' ? formatWithOffset(resolution.end, zone) : '';
  if (!isAllStrings(values) || !isAllStrings(utcValues) || start === null || end === null) {
    return {
      resolved: false,
      term: request.term,
      message: OUT_OF_RANGE_MESSAGE,
      acceptedTerms: ACCEPTED_TERMS,
    };
  }
  const common = {
    resolved: true,
    term: request.term,
    timezone: request.timezone,
    kind: resolution.kind,
    values,
    utcValues,
  } as const;
  const subject = `${request.label} in ${request.timezone}`;
  switch (resolution.kind) {
    case 'instant':
      return {
        ...common,
        description: `${subject} is ${describeInstant(resolution.instant, values[0] ?? '', zone)} (${utcValues[0] ?? ''}).`,
      };
    case 'period':
      return {
        ...common,
        start,
        end,
        description: `${subject} runs from ${describeInstant(resolution.start, start, zone)} to ${describeInstant(resolution.end, end, zone)}.`,
      };
    default:
      return { ...common, description: `${subject} is ${describeDays(resolution.days, values)}.` };
  }
}

const isAllStrings = (values: readonly (string | null)[]): values is readonly string[] =>
  values.every((value) => value !== null);
