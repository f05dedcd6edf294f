import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatWithOffset } from '../../../shared/conversation/server-tools/relative-date/iso-format';
import {
  formatClockStamp,
  isDaylightSavingTime,
  isoWeekday,
  isValidTimeZone,
  readClock,
  shortZoneName,
} from '../../../shared/conversation/time-zones';
import { zoneNamed } from './zone-named';

// luxon, which the Lambda code used before this module, is the independent oracle: it reads
// the same ICU data through Intl, but with its own arithmetic, caching and formatting.

/** Zones with half-hour and 45-minute offsets, 30-minute DST, negative DST, Ramadan DST. */
const HARD_ZONES = [
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'America/St_Johns',
  'Pacific/Chatham',
  'Europe/Dublin',
  'Africa/Casablanca',
  'America/New_York',
  'Europe/Berlin',
  'Australia/Sydney',
  'America/Santiago',
  'Pacific/Apia',
  'Asia/Kathmandu',
  'Antarctica/Troll',
  'Asia/Tehran',
] as const;
const ALL_ZONES = Intl.supportedValuesOf('timeZone');
const zoneName = fc.oneof(fc.constantFrom(...HARD_ZONES), fc.constantFrom(...ALL_ZONES));
const instantIn = (fromYear: number, toYear: number) =>
  fc.integer({ min: Date.UTC(fromYear, 0, 1), max: Date.UTC(toYear, 0, 1) });

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const luxonAt = (name: string, instant: number): DateTime =>
  DateTime.fromMillis(instant, { zone: IANAZone.create(name), locale: 'en-US' });

/** The first instant after `from` (within ~13 months) at which luxon sees the offset change. */
const nextTransition = (name: string, from: number): number | null => {
  const zone = IANAZone.create(name);
  for (let day = from; day < from + 400 * DAY_MS; day += DAY_MS) {
    if (zone.offset(day) === zone.offset(day + DAY_MS)) continue;
    let [before, after] = [day, day + DAY_MS];
    while (after - before > 1) {
      const middle = Math.floor((before + after) / 2);
      if (zone.offset(middle) === zone.offset(before)) before = middle;
      else after = middle;
    }
    return after;
  }
  return null;
};

const counts = { compared: 0, dstCompared: 0 };

/** Every reading of our zone module at `instant` in `name`, against luxon's. */
const expectSameAsLuxon = (name: string, instant: number): void => {
  const zone = zoneNamed(name);
  const oracle = luxonAt(name, instant);
  const reading = readClock(zone, instant);
  const { year, month, day, hour, minute, second, millisecond, offset } = oracle;
  expect(reading).toEqual({
    year,
    month,
    day,
    hour,
    minute,
    second,
    millisecond,
    offsetMinutes: offset,
  });
  expect(reading && isoWeekday(reading)).toBe(oracle.weekday);
  expect(shortZoneName(zone, instant)).toBe(oracle.offsetNameShort);
  expect(formatClockStamp(zone, instant)).toBe(oracle.toFormat("cccc yyyy-MM-dd HH:mm 'UTC'ZZ"));
  const wholeSecond = luxonAt(name, Math.floor(instant / 1000) * 1000);
  const iso = Number.isInteger(offset) ? wholeSecond.toISO({ suppressMilliseconds: true }) : null;
  expect(formatWithOffset(instant, zone)).toBe(iso);
  counts.compared += 1;
  // luxon's rule: larger than the offset on 1 January or on the same day of May, at the same
  // clock time. Ours: larger than the smaller of 1 January and 1 July. Compared wherever the two
  // reference offsets agree (they differ only in years when a zone changed rules in spring, or
  // when Casablanca's Ramadan hour falls on the May day).
  const ianaZone = IANAZone.create(name);
  const luxonStandard = Math.min(
    oracle.set({ month: 1, day: 1 }).offset,
    oracle.set({ month: 5 }).offset,
  );
  const ourStandard = Math.min(
    ianaZone.offset(Date.UTC(year, 0, 1)),
    ianaZone.offset(Date.UTC(year, 6, 1)),
  );
  if (luxonStandard === ourStandard) {
    expect(isDaylightSavingTime(zone, instant)).toBe(oracle.isInDST);
    counts.dstCompared += 1;
  }
};

describe('the zone module against luxon', () => {
  it('reads the same clock, offset, weekday, names and ISO text at any instant in any zone', () => {
    counts.compared = 0;
    counts.dstCompared = 0;
    fc.assert(
      fc.property(zoneName, instantIn(1900, 2100), (name, instant) => {
        expectSameAsLuxon(name, instant);
      }),
      { numRuns: 1500 },
    );
    // The DST rule was compared for nearly every run, not skipped into passing.
    expect(counts.dstCompared).toBeGreaterThan(counts.compared * 0.9);
  });

  it('agrees within three hours of every kind of offset change (DST, Ramadan, rule changes)', () => {
    let transitions = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...HARD_ZONES),
        instantIn(1970, 2060),
        fc.integer({ min: -3 * HOUR_MS, max: 3 * HOUR_MS }),
        (name, from, distance) => {
          const change = nextTransition(name, from);
          if (change === null) return;
          transitions += 1;
          for (const instant of [change - 1, change, change + distance]) {
            expectSameAsLuxon(name, instant);
          }
        },
      ),
      { numRuns: 400 },
    );
    // Kathmandu and Kolkata have no changes since the eighties; the others do every year.
    expect(transitions).toBeGreaterThan(200);
  });

  it('takes and refuses the same zone names', () => {
    const names = fc.oneof(
      fc.constantFrom(...ALL_ZONES),
      fc.constantFrom(...ALL_ZONES).map((name) => name.toLowerCase()),
      fc.constantFrom(...ALL_ZONES).map((name) => name.toUpperCase()),
      fc.constantFrom('UTC', 'GMT', 'Etc/GMT+5', 'EST5EDT', '+01:00', 'UTC+3', 'Z', 'local'),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(names, (name) => {
        expect(isValidTimeZone(name)).toBe(IANAZone.isValidZone(name));
      }),
      { numRuns: 1000 },
    );
  });
});
