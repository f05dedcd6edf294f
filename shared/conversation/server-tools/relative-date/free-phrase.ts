import { type ParsedComponents, parse } from 'chrono-node';
import { type PartOfDay, partOfDay } from './period-terms';
import { addDays, daysBetween, daysFromTo, type PlainDate } from './plain-date';
import { type Resolution, severalDays, singleDay } from './resolution';
import {
  naiveMilliseconds,
  startOfDay,
  type WallClock,
  wallClockAt,
  wallClockToInstant,
  type ZonedNow,
} from './zoned-time';

/** A free phrase resolved, with the part of it the parser understood. */
export interface FreePhraseResolution {
  readonly resolution: Resolution;
  readonly matchedText: string;
}

const MINUTE_MS = 60_000;
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

const wallClockOf = (components: ParsedComponents): WallClock => ({
  year: components.get('year') ?? Number.NaN,
  month: components.get('month') ?? 1,
  day: components.get('day') ?? 1,
  hour: components.get('hour') ?? 0,
  minute: components.get('minute') ?? 0,
  second: components.get('second') ?? 0,
  millisecond: components.get('millisecond') ?? 0,
});

const dateOf = (components: ParsedComponents): PlainDate => {
  const { year, month, day } = wallClockOf(components);
  return { year, month, day };
};

const isRelativeToNow = (components: ParsedComponents): boolean => {
  const tags = components.tags();
  return tags.has('casualReference/now') || tags.has('result/relativeDateAndTime');
};

const hasTime = (components: ParsedComponents): boolean =>
  isRelativeToNow(components) || components.isCertain('hour') || components.isCertain('minute');

/**
 * The instant the components name. chrono computed them against a reference whose clock reads
 * the node's local time at offset 0, so: "in 20 minutes" is now plus the distance between the two
 * readings (elapsed time, right across DST); "3pm EST" carries its own offset; anything else is a
 * local reading placed in the node's zone with the DST rule of wallClockToInstant.
 */
const instantOf = (components: ParsedComponents, now: ZonedNow): number => {
  const reading = naiveMilliseconds(wallClockOf(components));
  if (isRelativeToNow(components)) {
    return now.instant + reading - naiveMilliseconds(now.wallClock);
  }
  const explicitOffset = components.isCertain('timezoneOffset')
    ? components.get('timezoneOffset')
    : null;
  if (explicitOffset !== null) {
    return reading - explicitOffset * MINUTE_MS;
  }
  return wallClockToInstant(wallClockOf(components), now.zone);
};

const singleResolution = (
  components: ParsedComponents,
  matchedText: string,
  now: ZonedNow,
): Resolution => {
  if (hasTime(components)) {
    return { kind: 'instant', instant: instantOf(components, now) };
  }
  const part = PART_OF_DAY_WORDS.find(([words]) => words.test(matchedText))?.[1];
  return part === undefined
    ? singleDay(dateOf(components))
    : partOfDay(dateOf(components), part, now);
};

const rangeResolution = (
  start: ParsedComponents,
  end: ParsedComponents,
  matchedText: string,
  now: ZonedNow,
): Resolution => {
  if (!hasTime(start) && !hasTime(end)) {
    const first = dateOf(start);
    const last = dateOf(end);
    const count = daysBetween(first, last) + 1;
    if (count >= 1 && count <= MAX_LISTED_DAYS) {
      return severalDays(daysFromTo(first, last));
    }
  }
  // A date without a time starts at the day's start and ends at the next day's start.
  const startInstant = hasTime(start) ? instantOf(start, now) : startOfDay(dateOf(start), now.zone);
  const endInstant = hasTime(end)
    ? instantOf(end, now)
    : startOfDay(addDays(dateOf(end), 1), now.zone);
  if (!(endInstant > startInstant)) {
    return singleResolution(start, matchedText, now);
  }
  const { year, month, day } = wallClockAt(startInstant, now.zone);
  return { kind: 'period', day: { year, month, day }, start: startInstant, end: endInstant };
};

/**
 * Reads a free phrase ("next Friday at 3pm", "in 20 minutes", "March 3rd", "saturday morning",
 * "tomorrow from 2 to 4pm") with chrono in the node's zone. chrono ignores IANA zones, so it is
 * handed the node's local clock reading as a reference at offset 0 and its parsed components are
 * placed back in the zone with luxon. Null when nothing in the phrase reads as a date.
 */
export function resolveFreePhrase(phrase: string, now: ZonedNow): FreePhraseResolution | null {
  const text = phrase.replace(/_/g, ' ').trim();
  const reference = { instant: new Date(naiveMilliseconds(now.wallClock)), timezone: 0 };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text, reference, { forwardDate: !LOOKS_BACKWARDS.test(text) });
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
      ? singleResolution(first.start, first.text, now)
      : rangeResolution(first.start, first.end, first.text, now);
  return { resolution, matchedText: first.text };
}
