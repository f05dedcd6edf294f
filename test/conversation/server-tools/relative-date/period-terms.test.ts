import { describe, expect, it } from 'vitest';
import { expectResolved, resolveAt } from './resolve-at';

const NEW_YORK = 'America/New_York';
// Friday 2026-01-16, 10:30 in New York.
const FRIDAY_MORNING = '2026-01-16T10:30:00-05:00';

describe('resolveRelativeDate: parts of the day', () => {
  it.each([
    ['this_morning', '2026-01-16', '2026-01-16T06:00:00-05:00', '2026-01-16T12:00:00-05:00'],
    ['this_afternoon', '2026-01-16', '2026-01-16T12:00:00-05:00', '2026-01-16T17:00:00-05:00'],
    ['this_evening', '2026-01-16', '2026-01-16T17:00:00-05:00', '2026-01-16T21:00:00-05:00'],
    ['tonight', '2026-01-16', '2026-01-16T21:00:00-05:00', '2026-01-17T06:00:00-05:00'],
    ['tomorrow_morning', '2026-01-17', '2026-01-17T06:00:00-05:00', '2026-01-17T12:00:00-05:00'],
    ['tomorrow_afternoon', '2026-01-17', '2026-01-17T12:00:00-05:00', '2026-01-17T17:00:00-05:00'],
    ['tomorrow_evening', '2026-01-17', '2026-01-17T17:00:00-05:00', '2026-01-17T21:00:00-05:00'],
    ['tomorrow_night', '2026-01-17', '2026-01-17T21:00:00-05:00', '2026-01-18T06:00:00-05:00'],
    ['last_night', '2026-01-15', '2026-01-15T21:00:00-05:00', '2026-01-16T06:00:00-05:00'],
    ['yesterday_morning', '2026-01-15', '2026-01-15T06:00:00-05:00', '2026-01-15T12:00:00-05:00'],
    ['yesterday_afternoon', '2026-01-15', '2026-01-15T12:00:00-05:00', '2026-01-15T17:00:00-05:00'],
    ['yesterday_evening', '2026-01-15', '2026-01-15T17:00:00-05:00', '2026-01-15T21:00:00-05:00'],
    ['Tomorrow Morning', '2026-01-17', '2026-01-17T06:00:00-05:00', '2026-01-17T12:00:00-05:00'],
    ['this-evening', '2026-01-16', '2026-01-16T17:00:00-05:00', '2026-01-16T21:00:00-05:00'],
  ])('%s on Friday morning is the period %s: %s to %s', (term, day, start, end) => {
    // Act
    const result = expectResolved(resolveAt(term, NEW_YORK, FRIDAY_MORNING));

    // Assess
    expect(result).toMatchObject({ kind: 'period', start, end });
    expect(result.values).toEqual([`${day}T00:00:00-05:00`]);
    expect(result.utcValues).toEqual([`${day}T05:00:00Z`]);
  });

  describe('tonight and last_night around midnight', () => {
    const NIGHT_IN_PROGRESS = ['2026-01-15T21:00:00-05:00', '2026-01-16T06:00:00-05:00'];
    const COMING_NIGHT = ['2026-01-16T21:00:00-05:00', '2026-01-17T06:00:00-05:00'];

    it.each([
      { now: '2026-01-16T00:00:00-05:00', term: 'tonight', expected: NIGHT_IN_PROGRESS },
      { now: '2026-01-16T02:00:00-05:00', term: 'tonight', expected: NIGHT_IN_PROGRESS },
      { now: '2026-01-16T05:59:59-05:00', term: 'tonight', expected: NIGHT_IN_PROGRESS },
      { now: '2026-01-16T06:00:00-05:00', term: 'tonight', expected: COMING_NIGHT },
      { now: '2026-01-16T23:30:00-05:00', term: 'tonight', expected: COMING_NIGHT },
      { now: '2026-01-16T02:00:00-05:00', term: 'last_night', expected: NIGHT_IN_PROGRESS },
      { now: '2026-01-16T06:00:00-05:00', term: 'last_night', expected: NIGHT_IN_PROGRESS },
      { now: '2026-01-16T23:30:00-05:00', term: 'last_night', expected: NIGHT_IN_PROGRESS },
    ])('at $now, $term runs $expected', ({ now, term, expected }) => {
      // Act
      const result = expectResolved(resolveAt(term, NEW_YORK, now));

      // Assess
      expect([result.start, result.end]).toEqual(expected);
    });

    it('before 06:00 keeps this_morning on the calendar day', () => {
      // Act
      const result = expectResolved(
        resolveAt('this_morning', NEW_YORK, '2026-01-16T02:00:00-05:00'),
      );

      // Assess
      expect(result.start).toBe('2026-01-16T06:00:00-05:00');
    });
  });

  describe('across DST changes and in other zones', () => {
    it.each([
      {
        case: 'New York, the spring-forward night of 2026-03-07 (8 hours)',
        timezone: NEW_YORK,
        now: '2026-03-07T15:00:00-05:00',
        term: 'tonight',
        start: '2026-03-07T21:00:00-05:00',
        end: '2026-03-08T06:00:00-04:00',
      },
      {
        case: 'New York, the fall-back night of 2026-10-31 (10 hours)',
        timezone: NEW_YORK,
        now: '2026-10-31T15:00:00-04:00',
        term: 'tonight',
        start: '2026-10-31T21:00:00-04:00',
        end: '2026-11-01T06:00:00-05:00',
      },
      {
        case: 'New York, the morning after spring forward',
        timezone: NEW_YORK,
        now: '2026-03-07T15:00:00-05:00',
        term: 'tomorrow_morning',
        start: '2026-03-08T06:00:00-04:00',
        end: '2026-03-08T12:00:00-04:00',
      },
      {
        case: 'Berlin, the spring-forward night of 2026-03-28',
        timezone: 'Europe/Berlin',
        now: '2026-03-28T10:00:00+01:00',
        term: 'tonight',
        start: '2026-03-28T21:00:00+01:00',
        end: '2026-03-29T06:00:00+02:00',
      },
      {
        case: 'Auckland, the fall-back night of 2026-04-04',
        timezone: 'Pacific/Auckland',
        now: '2026-04-05T10:00:00+12:00',
        term: 'last_night',
        start: '2026-04-04T21:00:00+13:00',
        end: '2026-04-05T06:00:00+12:00',
      },
      {
        case: 'Kolkata, this evening',
        timezone: 'Asia/Kolkata',
        now: '2026-01-16T10:00:00+05:30',
        term: 'this_evening',
        start: '2026-01-16T17:00:00+05:30',
        end: '2026-01-16T21:00:00+05:30',
      },
    ])('$case', ({ timezone, now, term, start, end }) => {
      // Act
      const result = expectResolved(resolveAt(term, timezone, now));

      // Assess
      expect(result).toMatchObject({ kind: 'period', start, end });
    });
  });
});
