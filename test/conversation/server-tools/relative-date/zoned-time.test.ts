import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatUtc,
  formatWithOffset,
} from '../../../../shared/conversation/server-tools/relative-date/iso-format';
import {
  startOfDay,
  wallClockAt,
  wallClockToInstant,
} from '../../../../shared/conversation/server-tools/relative-date/zoned-time';
import {
  naiveMilliseconds,
  type TimeZone,
  timeZoneOf,
  type WallClock,
} from '../../../../shared/conversation/time-zones';

const zoneNamed = (name: string): TimeZone => {
  const zone = timeZoneOf(name);
  if (zone === null) throw new Error(`${name} is not a time zone`);
  return zone;
};

const reading = (
  year: number,
  month: number,
  day: number,
  hour: number,
  minute = 0,
): WallClock => ({
  year,
  month,
  day,
  hour,
  minute,
  second: 0,
  millisecond: 0,
});

describe('wallClockToInstant', () => {
  it.each([
    // Ordinary readings.
    ['America/New_York', reading(2026, 1, 16, 10, 30), '2026-01-16T15:30:00Z'],
    ['Asia/Kolkata', reading(2026, 1, 16, 0, 0), '2026-01-15T18:30:00Z'],
    // Gaps: the reading moves forward by the length of the gap.
    ['America/New_York', reading(2026, 3, 8, 2, 0), '2026-03-08T07:00:00Z'],
    ['America/New_York', reading(2026, 3, 8, 2, 30), '2026-03-08T07:30:00Z'],
    ['Europe/Berlin', reading(2026, 3, 29, 2, 30), '2026-03-29T01:30:00Z'],
    ['Pacific/Auckland', reading(2026, 9, 27, 2, 30), '2026-09-26T14:30:00Z'],
    // Overlaps: the first occurrence (the offset before the change).
    ['America/New_York', reading(2026, 11, 1, 1, 30), '2026-11-01T05:30:00Z'],
    ['Europe/Berlin', reading(2026, 10, 25, 2, 30), '2026-10-25T00:30:00Z'],
    ['Pacific/Auckland', reading(2026, 4, 5, 2, 30), '2026-04-04T13:30:00Z'],
    // Just outside the changes.
    ['America/New_York', reading(2026, 3, 8, 3, 0), '2026-03-08T07:00:00Z'],
    ['America/New_York', reading(2026, 11, 1, 2, 0), '2026-11-01T07:00:00Z'],
  ])('in %s, %o is %s', (timezone, wall, expected) => {
    // Act
    const instant = wallClockToInstant(wall, zoneNamed(timezone));

    // Assess
    expect(formatUtc(instant)).toBe(expected);
  });

  it('reads a clock back to the earliest instant that shows it (any zone, any instant)', () => {
    // Prepare
    const zones = Intl.supportedValuesOf('timeZone');

    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }),
        (timezone, instant) => {
          const zone = zoneNamed(timezone);

          // Act
          const wall = wallClockAt(instant, zone);
          const back = wallClockToInstant(wall, zone);

          // Assess: same reading, and never later than the instant it came from.
          expect(wallClockAt(back, zone)).toEqual(wall);
          expect(back).toBeLessThanOrEqual(instant);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is NaN for a reading outside the representable range', () => {
    // Act
    const instant = wallClockToInstant(reading(300_000, 1, 1, 0), zoneNamed('UTC'));

    // Assess
    expect(instant).toBeNaN();
  });
});

describe('startOfDay', () => {
  it.each([
    ['America/New_York', '2026-03-08T00:00:00-05:00'],
    ['America/Santiago', '2026-09-06T01:00:00-03:00'],
    ['Asia/Kolkata', '2026-09-06T00:00:00+05:30'],
  ])('in %s, the first instant of the day is %s', (timezone, expected) => {
    // Prepare
    const zone = zoneNamed(timezone);
    const date =
      timezone === 'America/New_York'
        ? { year: 2026, month: 3, day: 8 }
        : { year: 2026, month: 9, day: 6 };

    // Act
    const instant = startOfDay(date, zone);

    // Assess
    expect(formatWithOffset(instant, zone)).toBe(expected);
  });
});

describe('naiveMilliseconds', () => {
  it.each([
    [reading(2026, 1, 16, 10, 30), Date.UTC(2026, 0, 16, 10, 30)],
    // Date.UTC would read year 50 as 1950.
    [reading(50, 6, 1, 0), Date.parse('0050-06-01T00:00:00Z')],
  ])('reads %o as UTC: %d', (wall, expected) => {
    // Act
    const naive = naiveMilliseconds(wall);

    // Assess
    expect(naive).toBe(expected);
  });
});

describe('formatWithOffset and formatUtc', () => {
  it.each([
    [
      Date.UTC(2026, 0, 16, 15, 30, 0, 999),
      'America/New_York',
      '2026-01-16T10:30:00-05:00',
      '2026-01-16T15:30:00Z',
    ],
    [
      Date.UTC(2026, 0, 16, 15, 30, 0, 0),
      'Asia/Kolkata',
      '2026-01-16T21:00:00+05:30',
      '2026-01-16T15:30:00Z',
    ],
    [
      Date.UTC(2026, 0, 16, 15, 30, 0, 0),
      'UTC',
      '2026-01-16T15:30:00+00:00',
      '2026-01-16T15:30:00Z',
    ],
  ])('formats %d in %s as %s and %s', (instant, timezone, local, utc) => {
    // Act
    const formatted = [formatWithOffset(instant, zoneNamed(timezone)), formatUtc(instant)];

    // Assess
    expect(formatted).toEqual([local, utc]);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1000])(
    'gives null for %d',
    (instant) => {
      // Act
      const formatted = [formatWithOffset(instant, zoneNamed('UTC')), formatUtc(instant)];

      // Assess
      expect(formatted).toEqual([null, null]);
    },
  );
});
