import { describe, expect, it } from 'vitest';
import { expectResolved, resolveAt } from './resolve-at';

const NEW_YORK = 'America/New_York';
// Friday 2026-01-16, 10:30 in New York.
const FRIDAY_MORNING = '2026-01-16T10:30:00-05:00';

describe('resolveRelativeDate: free phrases (chrono, placed in the node zone)', () => {
  describe('instants', () => {
    it.each([
      ['next Friday at 3pm', '2026-01-23T15:00:00-05:00', '2026-01-23T20:00:00Z'],
      ['next_friday_at_3pm', '2026-01-23T15:00:00-05:00', '2026-01-23T20:00:00Z'],
      ['at 3pm', '2026-01-16T15:00:00-05:00', '2026-01-16T20:00:00Z'],
      // Already past today: an assistant means the next one.
      ['at 9am', '2026-01-17T09:00:00-05:00', '2026-01-17T14:00:00Z'],
      ['yesterday at 3pm', '2026-01-15T15:00:00-05:00', '2026-01-15T20:00:00Z'],
      ['tonight at 11', '2026-01-16T23:00:00-05:00', '2026-01-17T04:00:00Z'],
      // Durations the term table does not read fall to chrono: now plus chrono's distance.
      ['in a couple of hours', '2026-01-16T12:30:00-05:00', '2026-01-16T17:30:00Z'],
      ['a few minutes ago', '2026-01-16T10:27:00-05:00', '2026-01-16T15:27:00Z'],
      // An explicit offset in the phrase wins over the node zone.
      ['5pm UTC', '2026-01-16T12:00:00-05:00', '2026-01-16T17:00:00Z'],
      // 15:00Z has passed at 15:30Z: the next one.
      ['3pm UTC', '2026-01-17T10:00:00-05:00', '2026-01-17T15:00:00Z'],
      ['2026-03-03T15:00:00Z', '2026-03-03T10:00:00-05:00', '2026-03-03T15:00:00Z'],
      ['Dec 25 2026 3pm', '2026-12-25T15:00:00-05:00', '2026-12-25T20:00:00Z'],
    ])('"%s" is %s', (phrase, value, utcValue) => {
      // Act
      const result = expectResolved(resolveAt(phrase, NEW_YORK, FRIDAY_MORNING));

      // Assess
      expect(result).toMatchObject({ kind: 'instant', term: phrase, timezone: NEW_YORK });
      expect(result.values).toEqual([value]);
      expect(result.utcValues).toEqual([utcValue]);
    });
  });

  describe('days', () => {
    it.each([
      ['March 3rd', '2026-03-03T00:00:00-05:00'],
      ['friday last week', '2026-01-09T00:00:00-05:00'],
      ['this friday', '2026-01-16T00:00:00-05:00'],
      ['saturday', '2026-01-17T00:00:00-05:00'],
      ['the day after tomorrow', '2026-01-18T00:00:00-05:00'],
      ['Jan 20th', '2026-01-20T00:00:00-05:00'],
    ])('"%s" is the day starting %s', (phrase, value) => {
      // Act
      const result = expectResolved(resolveAt(phrase, NEW_YORK, FRIDAY_MORNING));

      // Assess
      expect(result.kind).toBe('day');
      expect(result.values).toEqual([value]);
    });

    it('reads a date without a year forward: March 3rd asked in April is next year', () => {
      // Act
      const result = expectResolved(resolveAt('March 3rd', NEW_YORK, '2026-04-16T10:00:00-04:00'));

      // Assess
      expect(result.values).toEqual(['2027-03-03T00:00:00-05:00']);
    });

    it('lists every day of a range', () => {
      // Act
      const result = expectResolved(
        resolveAt('from monday to wednesday', NEW_YORK, FRIDAY_MORNING),
      );

      // Assess
      expect(result.kind).toBe('days');
      expect(result.values).toEqual([
        '2026-01-19T00:00:00-05:00',
        '2026-01-20T00:00:00-05:00',
        '2026-01-21T00:00:00-05:00',
      ]);
    });
  });

  describe('periods', () => {
    it.each([
      ['saturday morning', '2026-01-17', '2026-01-17T06:00:00-05:00', '2026-01-17T12:00:00-05:00'],
      ['tuesday evening', '2026-01-20', '2026-01-20T17:00:00-05:00', '2026-01-20T21:00:00-05:00'],
      ['friday night', '2026-01-16', '2026-01-16T21:00:00-05:00', '2026-01-17T06:00:00-05:00'],
      [
        'tomorrow from 2 to 4pm',
        '2026-01-17',
        '2026-01-17T14:00:00-05:00',
        '2026-01-17T16:00:00-05:00',
      ],
      ['10pm to 2am', '2026-01-16', '2026-01-16T22:00:00-05:00', '2026-01-17T02:00:00-05:00'],
    ])('"%s" is a period on %s from %s to %s', (phrase, day, start, end) => {
      // Act
      const result = expectResolved(resolveAt(phrase, NEW_YORK, FRIDAY_MORNING));

      // Assess
      expect(result).toMatchObject({ kind: 'period', start, end });
      expect(result.values).toEqual([`${day}T00:00:00-05:00`]);
    });
  });

  describe('DST and other zones', () => {
    it.each([
      {
        case: 'a time in the spring-forward gap moves forward by the gap',
        timezone: NEW_YORK,
        now: '2026-03-07T12:00:00-05:00',
        phrase: 'tomorrow at 2:30am',
        value: '2026-03-08T03:30:00-04:00',
      },
      {
        case: 'the afternoon after spring forward is in EDT',
        timezone: NEW_YORK,
        now: '2026-03-07T12:00:00-05:00',
        phrase: 'tomorrow at 3pm',
        value: '2026-03-08T15:00:00-04:00',
      },
      {
        case: 'a time in the repeated hour is its first occurrence',
        timezone: NEW_YORK,
        now: '2026-10-31T12:00:00-04:00',
        phrase: 'tomorrow at 1:30am',
        value: '2026-11-01T01:30:00-04:00',
      },
      {
        case: 'noon after fall back is in EST',
        timezone: NEW_YORK,
        now: '2026-10-31T12:00:00-04:00',
        phrase: 'tomorrow at noon',
        value: '2026-11-01T12:00:00-05:00',
      },
      {
        case: 'Berlin, the gap of 2026-03-29',
        timezone: 'Europe/Berlin',
        now: '2026-03-28T12:00:00+01:00',
        phrase: 'tomorrow at 2:15am',
        value: '2026-03-29T03:15:00+02:00',
      },
      {
        case: 'Auckland, where Friday 15:30Z is already Saturday',
        timezone: 'Pacific/Auckland',
        now: '2026-01-16T15:30:00Z',
        phrase: 'next Friday at 3pm',
        value: '2026-01-23T15:00:00+13:00',
      },
      {
        case: 'Kolkata, half-hour offset',
        timezone: 'Asia/Kolkata',
        now: '2026-01-16T10:00:00+05:30',
        phrase: 'at 6pm',
        value: '2026-01-16T18:00:00+05:30',
      },
      {
        case: 'a phrase with its own zone, read in Berlin',
        timezone: 'Europe/Berlin',
        now: '2026-01-16T10:00:00+01:00',
        phrase: '3pm EST',
        value: '2026-01-16T21:00:00+01:00',
      },
    ])('$case: "$phrase" is $value', ({ timezone, now, phrase, value }) => {
      // Act
      const result = expectResolved(resolveAt(phrase, timezone, now));

      // Assess
      expect(result.values).toEqual([value]);
    });

    it('places a date-only phrase at the node zone midnight (Kolkata)', () => {
      // Act
      const result = expectResolved(
        resolveAt('March 3rd', 'Asia/Kolkata', '2026-01-16T10:00:00+05:30'),
      );

      // Assess
      expect(result.values).toEqual(['2026-03-03T00:00:00+05:30']);
      expect(result.utcValues).toEqual(['2026-03-02T18:30:00Z']);
    });
  });

  it('names the part of the phrase it understood in the description', () => {
    // Act
    const result = expectResolved(resolveAt('umm maybe tomorrow please', NEW_YORK, FRIDAY_MORNING));

    // Assess
    expect(result.values).toEqual(['2026-01-17T00:00:00-05:00']);
    expect(result.description).toContain('"tomorrow"');
  });
});
