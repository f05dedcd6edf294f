import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type RelativeDateResult,
  resolveRelativeDate,
} from '../../../../shared/conversation/server-tools/relative-date';
import { INTERNAL_FAILURE_MESSAGE } from '../../../../shared/conversation/server-tools/relative-date/resolve-relative-date';

const ZONES = Intl.supportedValuesOf('timeZone');
const ISO_WITH_OFFSET = /^[+-]?\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[+-]\d{2}:\d{2}|Z)$/;
const ISO_UTC = /^[+-]?\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

// Words that steer generated strings towards what chrono and the term table understand.
const DATE_WORDS = [
  'next',
  'last',
  'this',
  'in',
  'at',
  'tomorrow',
  'tonight',
  'friday',
  'sunday',
  'week',
  'weekend',
  'morning',
  'night',
  'minutes',
  'hours',
  'days',
  'ago',
  'from',
  'to',
  'noon',
  'march',
  '3rd',
  '3pm',
  '2:30am',
  '20',
  '0',
  '99999',
  'EST',
  'Z',
  '_',
  '-',
  ' ',
  'the',
  'a',
];

/** A well-formed answer: what every caller may rely on, whatever was asked. */
const expectWellFormed = (result: RelativeDateResult): void => {
  if (!result.resolved) {
    expect(result.message).not.toBe(INTERNAL_FAILURE_MESSAGE);
    expect(result.acceptedTerms.length).toBeGreaterThan(0);
    return;
  }
  expect(result.values.length).toBeGreaterThan(0);
  expect(result.utcValues.length).toBe(result.values.length);
  result.values.forEach((value, index) => {
    expect(value).toMatch(ISO_WITH_OFFSET);
    expect(result.utcValues[index]).toMatch(ISO_UTC);
    expect(Date.parse(value)).toBe(Date.parse(result.utcValues[index] ?? ''));
  });
  expect(result.kind === 'period').toBe(result.start !== undefined && result.end !== undefined);
  if (result.start !== undefined && result.end !== undefined) {
    expect(Date.parse(result.end)).toBeGreaterThan(Date.parse(result.start));
  }
};

// From 1900: some zones then still ran on local mean time, whose offsets have seconds; the tool
// answers those with resolved false, which the property accepts.
const arbitraryNow = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) });

describe('resolveRelativeDate never throws', () => {
  it.each([
    ['any string', fc.string({ maxLength: 300 })],
    ['any Unicode string', fc.string({ unit: 'grapheme', maxLength: 80 })],
    [
      'strings made of date words',
      fc.array(fc.constantFrom(...DATE_WORDS), { maxLength: 8 }).map((words) => words.join(' ')),
    ],
    [
      'date words glued with underscores',
      fc.array(fc.constantFrom(...DATE_WORDS), { maxLength: 6 }).map((words) => words.join('_')),
    ],
  ])('on %s, in any valid zone, at any instant', (_label, terms) => {
    fc.assert(
      fc.property(terms, fc.constantFrom(...ZONES), arbitraryNow, (term, timezone, now) => {
        // Act
        const result = resolveRelativeDate(term, { timezone, now });

        // Assess
        expectWellFormed(result);
      }),
      { numRuns: 400 },
    );
  });

  it('on any zone string and any number as the reference instant', () => {
    fc.assert(
      fc.property(fc.string(), fc.double(), (timezone, now) => {
        // Act
        const result = resolveRelativeDate('tomorrow', { timezone, now });

        // Assess
        expectWellFormed(result);
      }),
      { numRuns: 300 },
    );
  });
});
