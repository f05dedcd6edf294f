import { type ParsedComponents, parse } from 'chrono-node';
import type { WallClock } from '../../time-zones';
import { dateOf, hasTime, instantOf, type PhraseContext } from './chrono-components';
import { type PartOfDay, partOfDay } from './period-terms';
import { addDays, daysBetween, daysFromTo } from './plain-date';
import { type Resolution, severalDays, singleDay } from './resolution';
import { startOfDay, wallClockAt, type ZonedNow } from './zoned-time';

/** A free phrase resolved, with the part of it the parser understood. */
export interface FreePhraseResolution {
  readonly resolution: Resolution;
  readonly matchedText: string;
}

/** A date range longer than this is reported as one period rather than day by day. */
const MAX_LISTED_DAYS = 62;

// chrono's forwardDate pushes "friday" or "March 3rd" into the future, as a request to an
// assistant usually means, but it also turns "last friday" into the coming one: so it is off
// whenever the phrase looks backwards.
const LOOKS_BACKWARDS = /\b(last|past|previous|ago|yesterday|before|earlier)\b/i;

const PART_OF_DAY_WORDS: readonly (readonly [RegExp, PartOfDay])[] = [
  [/\bmorning\b/i, 'morning'],
  [/\bafternoon\b/i, 'afternoon'],
  [/\bevening\b/i, 'evening'],
  [/\b(tonight|night)\b/i, 'night'],
];

const singleResolution = (
  components: ParsedComponents,
  matchedText: string,
  context: PhraseContext,
): Resolution => {
  if (hasTime(components)) {
    return { kind: 'instant', instant: instantOf(components, context) };
  }
  const part = PART_OF_DAY_WORDS.find(([words]) => words.test(matchedText))?.[1];
  return part === undefined
    ? singleDay(dateOf(components))
    : partOfDay(dateOf(components), part, context.now);
};

const rangeResolution = (
  start: ParsedComponents,
  end: ParsedComponents,
  matchedText: string,
  context: PhraseContext,
): Resolution => {
  const { now } = context;
  if (!hasTime(start) && !hasTime(end)) {
    const first = dateOf(start);
    const last = dateOf(end);
    const count = daysBetween(first, last) + 1;
    if (count >= 1 && count <= MAX_LISTED_DAYS) {
      return severalDays(daysFromTo(first, last));
    }
  }
  // A date without a time starts at the day's start and ends at the next day's start.
  const startInstant = hasTime(start)
    ? instantOf(start, context)
    : startOfDay(dateOf(start), now.zone);
  const endInstant = hasTime(end)
    ? instantOf(end, context)
    : startOfDay(addDays(dateOf(end), 1), now.zone);
  if (!(endInstant > startInstant)) {
    return singleResolution(start, matchedText, context);
  }
  const { year, month, day } = wallClockAt(startInstant, now.zone);
  return { kind: 'period', day: { year, month, day }, start: startInstant, end: endInstant };
};

/**
 * A host-local Date whose fields read `wall`. chrono does its arithmetic and its forwardDate
 * comparisons with host-local Date methods and mixes in the reference instant when a reference
 * zone is given, so the only consistent reference is one with no zone whose local fields are the
 * node's clock. Exact on hosts running in UTC (Lambda); elsewhere only a reading that falls in the
 * host's own DST gap can shift.
 */
const hostDateReading = (wall: WallClock): Date => {
  const date = new Date(2000, 0, 1);
  date.setFullYear(wall.year, wall.month - 1, wall.day);
  date.setHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date;
};

/**
 * Reads a free phrase ("next Friday at 3pm", "in a couple of hours", "March 3rd", "saturday morning",
 * "tomorrow from 2 to 4pm") with chrono in the node's zone. chrono ignores IANA zones, so it is
 * handed the node's clock reading as its reference and its parsed components are placed back in
 * the zone with the zone's own offsets. Null when nothing in the phrase reads as a date.
 */
export function resolveFreePhrase(phrase: string, now: ZonedNow): FreePhraseResolution | null {
  const text = phrase.replace(/_/g, ' ').trim();
  const reference = hostDateReading(now.wallClock);
  const context = { now, forward: !LOOKS_BACKWARDS.test(text) };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text, reference, { forwardDate: context.forward });
  } catch {
    // A parser failure on odd input means "not understood", never a failed turn.
    return null;
  }
  const first = parsed[0];
  if (first === undefined) {
    return null;
  }
  const resolution =
    first.end === undefined || first.end === null
      ? singleResolution(first.start, first.text, context)
      : rangeResolution(first.start, first.end, first.text, context);
  return { resolution, matchedText: first.text };
}
