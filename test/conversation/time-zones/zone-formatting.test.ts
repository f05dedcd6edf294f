import { describe, expect, it } from 'vitest';
import {
  englishWeekdayName,
  formatClockStamp,
  formatIsoDateTime,
  formatUtcOffset,
  isoWeekday,
  type WallClock,
} from '../../../shared/conversation/time-zones';
import { zoneNamed } from './zone-named';

const wall = (year: number, millisecond = 0): WallClock => ({
  year,
  month: 3,
  day: 8,
  hour: 2,
  minute: 5,
  second: 9,
  millisecond,
});

describe('formatUtcOffset', () => {
  it.each([
    [0, '+00:00'],
    [-300, '-05:00'],
    [330, '+05:30'],
    [-210, '-03:30'],
    [825, '+13:45'],
    // A fraction of a minute is cut off, as luxon wrote it.
    [-(4 * 60 + 56 + 2 / 60), '-04:56'],
  ])('writes %d minutes as %s', (minutes, expected) => {
    expect(formatUtcOffset(minutes)).toBe(expected);
  });
});

describe('formatIsoDateTime', () => {
  it.each([
    [wall(2026), '-05:00', '2026-03-08T02:05:09-05:00'],
    [wall(2026, 7), 'Z', '2026-03-08T02:05:09.007Z'],
    [wall(0), 'Z', '0000-03-08T02:05:09Z'],
    [wall(50), 'Z', '0050-03-08T02:05:09Z'],
    // ISO's expanded years, as Date.prototype.toISOString writes them.
    [wall(10_000), '+01:00', '+010000-03-08T02:05:09+01:00'],
    [wall(-44), 'Z', '-000044-03-08T02:05:09Z'],
  ])('writes %o with %s as %s', (reading, suffix, expected) => {
    expect(formatIsoDateTime(reading, suffix)).toBe(expected);
  });
});

describe('isoWeekday and englishWeekdayName', () => {
  it.each([
    [{ year: 2026, month: 1, day: 12 }, 1, 'Monday'],
    [{ year: 2026, month: 1, day: 16 }, 5, 'Friday'],
    [{ year: 2026, month: 1, day: 18 }, 7, 'Sunday'],
    // Years 0-99 are not read as 1900-1999.
    [{ year: 50, month: 6, day: 1 }, 3, 'Wednesday'],
  ])('%o is day %d, %s', (date, number, name) => {
    expect([isoWeekday(date), englishWeekdayName(date)]).toEqual([number, name]);
  });
});

describe('formatClockStamp', () => {
  it.each([
    ['America/New_York', '2026-01-16T15:00:00Z', 'Friday 2026-01-16 10:00 UTC-05:00'],
    ['Asia/Kolkata', '2026-01-16T18:29:59Z', 'Friday 2026-01-16 23:59 UTC+05:30'],
    ['Pacific/Chatham', '2026-01-16T12:00:00Z', 'Saturday 2026-01-17 01:45 UTC+13:45'],
    ['UTC', '2026-01-16T15:00:00Z', 'Friday 2026-01-16 15:00 UTC+00:00'],
    ['UTC', '+010000-01-01T00:00:00Z', 'Saturday 10000-01-01 00:00 UTC+00:00'],
  ])('in %s at %s is %s', (name, isoInstant, expected) => {
    expect(formatClockStamp(zoneNamed(name), Date.parse(isoInstant))).toBe(expected);
  });

  it('is null for an instant a Date cannot hold', () => {
    expect(formatClockStamp(zoneNamed('UTC'), Number.NaN)).toBeNull();
  });
});
