import type { ParsedComponents } from 'chrono-node';
import { naiveMilliseconds, type WallClock } from '../../time-zones';
import type { PlainDate } from './plain-date';
import { wallClockToInstant, type ZonedNow } from './zoned-time';

/** What a free phrase is read against: the node's now, and whether to read it forward. */
export interface PhraseContext {
  readonly now: ZonedNow;
  /** Dates without a year, weekdays and bare times point to the future (chrono's forwardDate). */
  readonly forward: boolean;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The clock reading chrono parsed, implied parts included. */
export const wallClockOf = (components: ParsedComponents): WallClock => ({
  year: components.get('year') ?? Number.NaN,
  month: components.get('month') ?? 1,
  day: components.get('day') ?? 1,
  hour: components.get('hour') ?? 0,
  minute: components.get('minute') ?? 0,
  second: components.get('second') ?? 0,
  millisecond: components.get('millisecond') ?? 0,
});

/** The calendar day chrono parsed, implied parts included. */
export const dateOf = (components: ParsedComponents): PlainDate => {
  const { year, month, day } = wallClockOf(components);
  return { year, month, day };
};

const isRelativeToNow = (components: ParsedComponents): boolean => {
  const tags = components.tags();
  return tags.has('casualReference/now') || tags.has('result/relativeDateAndTime');
};

const DATE_PARTS = ['year', 'month', 'day', 'weekday'] as const;

const isOnlyTime = (components: ParsedComponents): boolean =>
  !DATE_PARTS.some((part) => components.isCertain(part));

/** Whether the phrase named a time of day (or a distance from now), not just a day. */
export const hasTime = (components: ParsedComponents): boolean =>
  isRelativeToNow(components) || components.isCertain('hour') || components.isCertain('minute');

/**
 * "3pm UTC": a reading in a fixed offset. Without a date in the phrase the day is the one that
 * offset's clock shows now, moved to the next if already past when reading forward: chrono took
 * the node's day instead, and its own forward check compares instants that depend on the host.
 */
const explicitOffsetInstant = (
  components: ParsedComponents,
  offsetMinutes: number,
  context: PhraseContext,
): number => {
  const offsetMs = offsetMinutes * MINUTE_MS;
  const reading = wallClockOf(components);
  if (!isOnlyTime(components)) {
    return naiveMilliseconds(reading) - offsetMs;
  }
  const clockThere = new Date(context.now.instant + offsetMs);
  const instant =
    naiveMilliseconds({
      ...reading,
      year: clockThere.getUTCFullYear(),
      month: clockThere.getUTCMonth() + 1,
      day: clockThere.getUTCDate(),
    }) - offsetMs;
  return context.forward && instant < context.now.instant ? instant + DAY_MS : instant;
};

/**
 * The instant the components name. chrono read them against the node's clock reading, so: a
 * duration from now that the term table did not take ("in a couple of hours") is now plus the
 * distance between the two readings; "3pm EST" carries its own offset; anything else is a local
 * reading placed in the node's zone with the DST rule of wallClockToInstant.
 */
export const instantOf = (components: ParsedComponents, context: PhraseContext): number => {
  const { now } = context;
  if (isRelativeToNow(components)) {
    return (
      now.instant + naiveMilliseconds(wallClockOf(components)) - naiveMilliseconds(now.wallClock)
    );
  }
  const explicitOffset = components.isCertain('timezoneOffset')
    ? components.get('timezoneOffset')
    : null;
  if (explicitOffset !== null) {
    return explicitOffsetInstant(components, explicitOffset, context);
  }
  return wallClockToInstant(wallClockOf(components), now.zone);
};
