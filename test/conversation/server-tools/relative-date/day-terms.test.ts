import { describe, expect, it } from 'vitest';
import { expectResolved, midnight, resolveAt, utcOf } from './resolve-at';

// One fixed instant, 2026-01-16T15:30:00Z, read in four zones: Friday morning in New York,
// Friday afternoon in Berlin, Friday evening in Kolkata, already Saturday in Auckland.
const NOW = '2026-01-16T15:30:00Z';

const FRIDAY = ['2026-01-16', '2026-01-17', '2026-01-15', '2026-01-18', '2026-01-14'] as const;
const SATURDAY = ['2026-01-17', '2026-01-18', '2026-01-16', '2026-01-19', '2026-01-15'] as const;

describe('resolveRelativeDate: single days', () => {
  describe.each([
    { timezone: 'America/New_York', offset: '-05:00', days: FRIDAY },
    { timezone: 'Europe/Berlin', offset: '+01:00', days: FRIDAY },
    { timezone: 'Asia/Kolkata', offset: '+05:30', days: FRIDAY },
    { timezone: 'Pacific/Auckland', offset: '+13:00', days: SATURDAY },
  ])('in $timezone (today is $days.0)', ({ timezone, offset, days }) => {
    const [today, tomorrow, yesterday, dayAfterTomorrow, dayBeforeYesterday] = days;

    it.each([
      ['today', today],
      ['tomorrow', tomorrow],
      ['yesterday', yesterday],
      ['day_after_tomorrow', dayAfterTomorrow],
      ['day_before_yesterday', dayBeforeYesterday],
    ])('%s is %s', (term, date) => {
      // Prepare
      const localStart = midnight(date, offset);

      // Act
      const result = expectResolved(resolveAt(term, timezone, NOW));

      // Assess
      expect(result).toMatchObject({ kind: 'day', term, timezone });
      expect(result.values).toEqual([localStart]);
      expect(result.utcValues).toEqual([utcOf(localStart)]);
      expect(result.start).toBeUndefined();
    });
  });

  it('gives the start of tomorrow in New York in January as 05:00Z (the example of the issue)', () => {
    // Act
    const result = expectResolved(
      resolveAt('tomorrow', 'America/New_York', '2026-01-16T10:30:00-05:00'),
    );

    // Assess
    expect(result.values).toEqual(['2026-01-17T00:00:00-05:00']);
    expect(result.utcValues).toEqual(['2026-01-17T05:00:00Z']);
    expect(result.description).toContain('Saturday 2026-01-17');
  });

  it.each([
    { timezone: 'Asia/Kolkata', utc: '2026-01-16T18:30:00Z' },
    { timezone: 'Pacific/Auckland', utc: '2026-01-17T11:00:00Z' },
  ])('writes UTC day starts in $timezone with the half-hour and day shift', ({ timezone, utc }) => {
    // Act
    const result = expectResolved(resolveAt('tomorrow', timezone, NOW));

    // Assess
    expect(result.utcValues).toEqual([utc]);
  });
});

describe('resolveRelativeDate: next_<weekday> and last_<weekday>', () => {
  // Wednesday 2026-01-14 at noon in New York.
  const WEDNESDAY_NOON = '2026-01-14T12:00:00-05:00';

  it.each([
    ['next_monday', '2026-01-19'],
    ['next_tuesday', '2026-01-20'],
    ['next_wednesday', '2026-01-21'],
    ['next_thursday', '2026-01-15'],
    ['next_friday', '2026-01-16'],
    ['next_saturday', '2026-01-17'],
    ['next_sunday', '2026-01-18'],
    ['last_monday', '2026-01-12'],
    ['last_tuesday', '2026-01-13'],
    ['last_wednesday', '2026-01-07'],
    ['last_thursday', '2026-01-08'],
    ['last_friday', '2026-01-09'],
    ['last_saturday', '2026-01-10'],
    ['last_sunday', '2026-01-11'],
    ['next fri', '2026-01-16'],
    ['Last-Thurs', '2026-01-08'],
    ['next tues', '2026-01-20'],
    ['NEXT SUN', '2026-01-18'],
  ])('on a Wednesday, %s is %s', (term, date) => {
    // Act
    const result = expectResolved(resolveAt(term, 'America/New_York', WEDNESDAY_NOON));

    // Assess
    expect(result.kind).toBe('day');
    expect(result.values).toEqual([midnight(date, '-05:00')]);
  });

  it.each([
    ['Sunday', '2026-01-11', 'next_sunday', '2026-01-18'],
    ['Monday', '2026-01-12', 'next_monday', '2026-01-19'],
    ['Saturday', '2026-01-17', 'next_saturday', '2026-01-24'],
    ['Sunday', '2026-01-11', 'last_sunday', '2026-01-04'],
    ['Monday', '2026-01-12', 'last_monday', '2026-01-05'],
    ['Saturday', '2026-01-17', 'last_saturday', '2026-01-10'],
  ])('asked on a %s (%s), %s is a week away: %s', (_weekday, today, term, date) => {
    // Act
    const result = expectResolved(resolveAt(term, 'America/New_York', `${today}T09:00:00-05:00`));

    // Assess
    expect(result.values).toEqual([midnight(date, '-05:00')]);
  });

  it('reads the weekday in the node zone: Friday night in New York is Saturday in Auckland', () => {
    // Prepare: 2026-01-16T23:00-05:00 is 2026-01-17T17:00+13:00.
    const now = '2026-01-16T23:00:00-05:00';

    // Act
    const newYork = expectResolved(resolveAt('next_saturday', 'America/New_York', now));
    const auckland = expectResolved(resolveAt('next_saturday', 'Pacific/Auckland', now));

    // Assess
    expect(newYork.values).toEqual(['2026-01-17T00:00:00-05:00']);
    expect(auckland.values).toEqual(['2026-01-24T00:00:00+13:00']);
  });
});
