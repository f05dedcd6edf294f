import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isIsoDate, isIsoDateTime, isIsoDuration, isIsoTime } from '../../../shared/params';
import { probeSet } from '../support/command-sets';

const DATES: readonly [string, boolean][] = [
  ['2026-01-18', true],
  ['2024-02-29', true],
  ['2000-02-29', true],
  ['2026-12-31', true],
  ['1900-02-29', false],
  ['2026-02-29', false],
  ['2026-02-30', false],
  ['2026-04-31', false],
  ['2026-13-01', false],
  ['2026-00-10', false],
  ['2026-01-00', false],
  ['2026-1-18', false],
  ['20260118', false],
  [' 2026-01-18', false],
  ['2026-01-18T00:00:00Z', false],
];

const DATE_TIMES: readonly [string, boolean][] = [
  ['2026-01-18T05:00:00Z', true],
  ['2026-01-18T05:00:00+01:00', true],
  ['2026-01-18T05:00:00-05:00', true],
  ['2026-01-18T05:00:00.5Z', true],
  ['2026-01-18T05:00:00.123456+05:30', true],
  ['2024-02-29T23:59:59Z', true],
  ['2026-01-18T00:00:00+23:59', true],
  ['2026-01-18T05:00:00', false],
  ['2026-01-18t05:00:00Z', false],
  ['2026-01-18T05:00:00z', false],
  ['2026-01-18 05:00:00Z', false],
  ['2026-01-18T05:00Z', false],
  ['2026-01-18T24:00:00Z', false],
  ['2026-01-18T23:60:00Z', false],
  ['2026-01-18T23:59:60Z', false],
  ['2026-01-18T05:00:00+24:00', false],
  ['2026-01-18T05:00:00+01:60', false],
  ['2026-01-18T05:00:00+0100', false],
  ['2026-02-29T05:00:00Z', false],
  ['2026-01-18T05:00:00.Z', false],
  ['tomorrow', false],
];

const TIMES: readonly [string, boolean][] = [
  ['15:00', true],
  ['00:00', true],
  ['15:00:30', true],
  ['15:00:30.25', true],
  ['23:59:59', true],
  ['15:00Z', true],
  ['15:00:00+02:00', true],
  ['15:00:00-09:30', true],
  ['24:00', false],
  ['15:60', false],
  ['15:00:60', false],
  ['9:30', false],
  ['15', false],
  ['15:00.5', false],
  ['15:00z', false],
  ['15:00+24:00', false],
  ['3pm', false],
];

const DURATIONS: readonly [string, boolean][] = [
  ['P1D', true],
  ['PT90M', true],
  ['P1DT2H', true],
  ['PT0.5S', true],
  ['PT1.5H', true],
  ['P2W', true],
  ['P0D', true],
  ['P1Y2M3DT4H5M6S', true],
  ['P', false],
  ['PT', false],
  ['P1DT', false],
  ['1D', false],
  ['pt90m', false],
  ['P1H', false],
  ['P1.5DT2H', false],
  ['P1W2D', false],
  ['-PT5M', false],
  ['PT0,5S', false],
];

describe.each([
  ['date', isIsoDate, DATES],
  ['date-time', isIsoDateTime, DATE_TIMES],
  ['time', isIsoTime, TIMES],
  ['duration', isIsoDuration, DURATIONS],
] as const)('the %s format', (_format, check, cases) => {
  it.each(cases)('%j is valid: %s', (text, valid) => {
    // Act
    const verdict = check(text);

    // Assess
    expect(verdict).toBe(valid);
  });
});

describe('the formats as ajv applies them', () => {
  const set = probeSet([
    { name: 'day', type: 'date' },
    { name: 'moment', type: 'datetime' },
    { name: 'clock', type: 'time' },
    { name: 'span', type: 'timedelta' },
  ]);

  it.each([
    ['day', DATES],
    ['moment', DATE_TIMES],
    ['clock', TIMES],
    ['span', DURATIONS],
  ] as const)('replace the ajv-formats versions for %s', (parameter, cases) => {
    for (const [text, valid] of cases) {
      // Act
      const check = set.check({ name: 'probe', arguments: { [parameter]: text } }, 'strict');

      // Assess
      expect({ text, ok: check.ok }).toEqual({ text, ok: valid });
    }
  });
});

describe('isIsoDate against luxon', () => {
  it('agrees on every year-month-day of the form YYYY-MM-DD', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (year, month, day) => {
          // Prepare
          const pad = (value: number, length: number) => String(value).padStart(length, '0');
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

          // Act
          const verdict = isIsoDate(text);

          // Assess
          expect(verdict).toBe(DateTime.fromFormat(text, 'yyyy-MM-dd').isValid);
        },
      ),
    );
  });
});
