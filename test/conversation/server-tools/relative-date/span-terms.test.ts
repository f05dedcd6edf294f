import { describe, expect, it } from 'vitest';
import { expectResolved, midnight, resolveAt, utcOf } from './resolve-at';

const NEW_YORK = 'America/New_York';
const newYorkDays = (...dates: string[]): string[] => dates.map((date) => midnight(date, '-05:00'));

// The week of Sunday 2026-01-11 to Saturday 2026-01-17, asked at 10:00 in New York each day.
const WEEK = [
  { weekday: 'Sunday', date: '2026-01-11' },
  { weekday: 'Monday', date: '2026-01-12' },
  { weekday: 'Tuesday', date: '2026-01-13' },
  { weekday: 'Wednesday', date: '2026-01-14' },
  { weekday: 'Thursday', date: '2026-01-15' },
  { weekday: 'Friday', date: '2026-01-16' },
  { weekday: 'Saturday', date: '2026-01-17' },
];

const WEEKDAY_WEEKENDS = {
  this_weekend: ['2026-01-17', '2026-01-18'],
  next_weekend: ['2026-01-24', '2026-01-25'],
  last_weekend: ['2026-01-10', '2026-01-11'],
};

/** What each weekend term means, by the day it is asked on (see span-terms.ts for the rule). */
const WEEKENDS: Record<string, Record<string, string[]>> = {
  // On a Sunday the weekend in progress is this_weekend: only today is left of it.
  Sunday: {
    this_weekend: ['2026-01-11'],
    next_weekend: ['2026-01-17', '2026-01-18'],
    last_weekend: ['2026-01-03', '2026-01-04'],
  },
  Monday: WEEKDAY_WEEKENDS,
  Tuesday: WEEKDAY_WEEKENDS,
  Wednesday: WEEKDAY_WEEKENDS,
  Thursday: WEEKDAY_WEEKENDS,
  Friday: WEEKDAY_WEEKENDS,
  // On a Saturday the weekend in progress is this_weekend, both days.
  Saturday: WEEKDAY_WEEKENDS,
};

describe('resolveRelativeDate: weekends asked on every day of the week', () => {
  describe.each(WEEK)('on $weekday $date', ({ weekday, date }) => {
    it.each(Object.entries(WEEKENDS[weekday] ?? {}))('%s is %j', (term, dates) => {
      // Act
      const result = expectResolved(resolveAt(term, NEW_YORK, `${date}T10:00:00-05:00`));

      // Assess
      expect(result.kind).toBe('days');
      expect(result.values).toEqual(newYorkDays(...dates));
      expect(result.utcValues).toEqual(dates.map((day) => `${day}T05:00:00Z`));
    });
  });
});

describe('resolveRelativeDate: weeks (Sunday to Saturday) asked on every day of the week', () => {
  const THIS_WEEK = ['11', '12', '13', '14', '15', '16', '17'].map((day) => `2026-01-${day}`);
  const NEXT_WEEK = ['18', '19', '20', '21', '22', '23', '24'].map((day) => `2026-01-${day}`);
  const LAST_WEEK = ['04', '05', '06', '07', '08', '09', '10'].map((day) => `2026-01-${day}`);

  describe.each(WEEK)('on $weekday $date', ({ date }) => {
    it.each([
      ['this_week', THIS_WEEK],
      ['next_week', NEXT_WEEK],
      ['last_week', LAST_WEEK],
    ])('%s is the seven days from %j', (term, dates) => {
      // Act
      const result = expectResolved(resolveAt(term, NEW_YORK, `${date}T23:59:59-05:00`));

      // Assess
      expect(result.kind).toBe('days');
      expect(result.values).toEqual(newYorkDays(...dates));
    });
  });
});

describe('resolveRelativeDate: weeks and weekends across a DST change', () => {
  it.each([
    {
      case: 'New York, this_week of 2026-03-08 (spring forward on Sunday at 02:00)',
      timezone: NEW_YORK,
      term: 'this_week',
      now: '2026-03-10T09:00:00-04:00',
      values: [
        '2026-03-08T00:00:00-05:00',
        '2026-03-09T00:00:00-04:00',
        '2026-03-10T00:00:00-04:00',
        '2026-03-11T00:00:00-04:00',
        '2026-03-12T00:00:00-04:00',
        '2026-03-13T00:00:00-04:00',
        '2026-03-14T00:00:00-04:00',
      ],
    },
    {
      case: 'New York, next_week from 2026-10-28 (fall back on Sunday 2026-11-01)',
      timezone: NEW_YORK,
      term: 'next_week',
      now: '2026-10-28T09:00:00-04:00',
      values: [
        '2026-11-01T00:00:00-04:00',
        '2026-11-02T00:00:00-05:00',
        '2026-11-03T00:00:00-05:00',
        '2026-11-04T00:00:00-05:00',
        '2026-11-05T00:00:00-05:00',
        '2026-11-06T00:00:00-05:00',
        '2026-11-07T00:00:00-05:00',
      ],
    },
    {
      case: 'Berlin, this_weekend of 2026-03-28/29 (spring forward on Sunday at 02:00)',
      timezone: 'Europe/Berlin',
      term: 'this_weekend',
      now: '2026-03-26T09:00:00+01:00',
      values: ['2026-03-28T00:00:00+01:00', '2026-03-29T00:00:00+01:00'],
    },
    {
      case: 'Berlin, next_weekend from 2026-10-22 (fall back on Sunday 2026-10-25)',
      timezone: 'Europe/Berlin',
      term: 'next_weekend',
      now: '2026-10-22T09:00:00+02:00',
      values: ['2026-10-31T00:00:00+01:00', '2026-11-01T00:00:00+01:00'],
    },
    {
      case: 'Auckland, this_weekend of 2026-04-04/05 (fall back on Sunday at 03:00)',
      timezone: 'Pacific/Auckland',
      term: 'this_weekend',
      now: '2026-04-02T09:00:00+13:00',
      values: ['2026-04-04T00:00:00+13:00', '2026-04-05T00:00:00+13:00'],
    },
    {
      case: 'Auckland, last_weekend from 2026-09-29 (spring forward on Sunday 2026-09-27)',
      timezone: 'Pacific/Auckland',
      term: 'last_weekend',
      now: '2026-09-29T09:00:00+13:00',
      values: ['2026-09-26T00:00:00+12:00', '2026-09-27T00:00:00+12:00'],
    },
    {
      case: 'Kolkata (no DST), this_weekend',
      timezone: 'Asia/Kolkata',
      term: 'this_weekend',
      now: '2026-01-15T09:00:00+05:30',
      values: ['2026-01-17T00:00:00+05:30', '2026-01-18T00:00:00+05:30'],
    },
  ])('$case', ({ timezone, term, now, values }) => {
    // Act
    const result = expectResolved(resolveAt(term, timezone, now));

    // Assess
    expect(result.values).toEqual(values);
    expect(result.utcValues).toEqual(values.map(utcOf));
  });

  it('gives each UTC day start of a DST week explicitly (New York, 2026-03-08)', () => {
    // Act
    const result = expectResolved(resolveAt('this_week', NEW_YORK, '2026-03-10T09:00:00-04:00'));

    // Assess
    expect(result.utcValues.slice(0, 3)).toEqual([
      '2026-03-08T05:00:00Z',
      '2026-03-09T04:00:00Z',
      '2026-03-10T04:00:00Z',
    ]);
  });

  it('reads the weekend from the node zone: Friday 15:30Z is already Saturday 04:30 in Auckland', () => {
    // Prepare
    const now = '2026-01-16T15:30:00Z';

    // Act
    const auckland = expectResolved(resolveAt('this_weekend', 'Pacific/Auckland', now));

    // Assess
    expect(auckland.values).toEqual(['2026-01-17T00:00:00+13:00', '2026-01-18T00:00:00+13:00']);
    expect(auckland.utcValues).toEqual(['2026-01-16T11:00:00Z', '2026-01-17T11:00:00Z']);
  });
});
