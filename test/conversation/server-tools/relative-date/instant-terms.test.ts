import { describe, expect, it } from 'vitest';
import { resolveRelativeDate } from '../../../../shared/conversation/server-tools/relative-date';
import { at, expectResolved, resolveAt } from './resolve-at';

const NEW_YORK = 'America/New_York';

describe('resolveRelativeDate: now and in_N_*', () => {
  it.each([
    { term: 'now', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T10:30:00-05:00' },
    { term: 'in_20_minutes', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T10:50:00-05:00' },
    { term: 'in 20 minutes', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T10:50:00-05:00' },
    { term: 'In-1-Minute', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T10:31:00-05:00' },
    { term: 'in_90_minutes', now: '2026-01-16T23:00:00-05:00', value: '2026-01-17T00:30:00-05:00' },
    { term: 'in_2_hours', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T12:30:00-05:00' },
    { term: 'in 1 hour', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T11:30:00-05:00' },
    { term: 'in_3_days', now: '2026-01-16T10:30:00-05:00', value: '2026-01-19T10:30:00-05:00' },
    { term: 'in 0 minutes', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T10:30:00-05:00' },
    { term: 'in 5 mins', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T10:35:00-05:00' },
    { term: 'in 2 hrs', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T12:30:00-05:00' },
    {
      term: 'in twenty minutes',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-16T10:50:00-05:00',
    },
    {
      term: 'in twenty-five minutes',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-16T10:55:00-05:00',
    },
    { term: 'in an hour', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T11:30:00-05:00' },
    {
      term: 'in half an hour',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-16T11:00:00-05:00',
    },
    { term: 'in two days', now: '2026-01-16T10:30:00-05:00', value: '2026-01-18T10:30:00-05:00' },
    {
      term: 'in three weeks',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-02-06T10:30:00-05:00',
    },
    {
      term: 'in an hour and a half',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-16T12:00:00-05:00',
    },
    { term: 'in 1.5 hours', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T12:00:00-05:00' },
    {
      term: 'in 1 hour, 30 minutes',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-16T12:00:00-05:00',
    },
    {
      term: 'in 2 days and 3 hours',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-18T13:30:00-05:00',
    },
    { term: 'in 45 seconds', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T10:30:45-05:00' },
    {
      term: '20 minutes from now',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-16T10:50:00-05:00',
    },
    { term: '2 hours later', now: '2026-01-16T10:30:00-05:00', value: '2026-01-16T12:30:00-05:00' },
    {
      term: '20 minutes ago',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-16T10:10:00-05:00',
    },
    {
      term: 'half an hour ago',
      now: '2026-01-16T10:30:00-05:00',
      value: '2026-01-16T10:00:00-05:00',
    },
    { term: '3 days ago', now: '2026-01-16T10:30:00-05:00', value: '2026-01-13T10:30:00-05:00' },
  ])('$term at $now is $value', ({ term, now, value }) => {
    // Act
    const result = expectResolved(resolveAt(term, NEW_YORK, now));

    // Assess
    expect(result.kind).toBe('instant');
    expect(result.values).toEqual([value]);
    expect(result.utcValues).toEqual([new Date(at(value)).toISOString().replace('.000Z', 'Z')]);
  });

  describe('across DST changes in New York', () => {
    it.each([
      {
        case: 'in_2_hours from 01:30 EST on 2026-03-08 is 2 elapsed hours: 04:30 EDT',
        term: 'in_2_hours',
        now: '2026-03-08T01:30:00-05:00',
        value: '2026-03-08T04:30:00-04:00',
      },
      {
        case: 'in_30_minutes from 01:45 EST jumps the gap to 03:15 EDT',
        term: 'in_30_minutes',
        now: '2026-03-08T01:45:00-05:00',
        value: '2026-03-08T03:15:00-04:00',
      },
      {
        case: 'in_1_hours from 01:30 EDT on 2026-11-01 is the second 01:30 (EST)',
        term: 'in_1_hours',
        now: '2026-11-01T01:30:00-04:00',
        value: '2026-11-01T01:30:00-05:00',
      },
      {
        case: 'in 1 hour and 30 minutes from 01:00 EST is 03:30 EDT (90 elapsed minutes)',
        term: 'in 1 hour and 30 minutes',
        now: '2026-03-08T01:00:00-05:00',
        value: '2026-03-08T03:30:00-04:00',
      },
      {
        case: 'in 1 day and 2 hours from Saturday noon: Sunday 12:00 EDT, then 2 elapsed hours',
        term: 'in 1 day and 2 hours',
        now: '2026-03-07T12:00:00-05:00',
        value: '2026-03-08T14:00:00-04:00',
      },
      {
        case: '3 hours ago from 03:30 EDT on 2026-03-08 is 23:30 EST the day before',
        term: '3 hours ago',
        now: '2026-03-08T03:30:00-04:00',
        value: '2026-03-07T23:30:00-05:00',
      },
      {
        case: '1 day ago from Sunday noon EDT is Saturday noon EST (23 hours back)',
        term: '1 day ago',
        now: '2026-03-08T12:00:00-04:00',
        value: '2026-03-07T12:00:00-05:00',
      },
      {
        case: 'in_1_days keeps the clock time over a 23-hour day',
        term: 'in_1_days',
        now: '2026-03-07T12:00:00-05:00',
        value: '2026-03-08T12:00:00-04:00',
      },
      {
        case: 'in_1_days keeps the clock time over a 25-hour day',
        term: 'in_1_days',
        now: '2026-10-31T12:00:00-04:00',
        value: '2026-11-01T12:00:00-05:00',
      },
      {
        case: 'in_1_days landing in the spring-forward gap moves forward to 03:30 EDT',
        term: 'in_1_days',
        now: '2026-03-07T02:30:00-05:00',
        value: '2026-03-08T03:30:00-04:00',
      },
      {
        case: 'in_1_days landing in the repeated hour takes the first 01:30 (EDT)',
        term: 'in_1_days',
        now: '2026-10-31T01:30:00-04:00',
        value: '2026-11-01T01:30:00-04:00',
      },
      {
        case: 'now inside the repeated hour keeps its own offset (second 01:30, EST)',
        term: 'now',
        now: '2026-11-01T06:30:00Z',
        value: '2026-11-01T01:30:00-05:00',
      },
    ])('$case', ({ term, now, value }) => {
      // Act
      const result = expectResolved(resolveAt(term, NEW_YORK, now));

      // Assess
      expect(result.values).toEqual([value]);
    });
  });

  it.each([
    ['Europe/Berlin', '2026-03-29T01:30:00+01:00', 'in_1_hours', '2026-03-29T03:30:00+02:00'],
    ['Pacific/Auckland', '2026-04-05T02:30:00+13:00', 'in_1_hours', '2026-04-05T02:30:00+12:00'],
    ['Asia/Kolkata', '2026-01-16T23:50:00+05:30', 'in_20_minutes', '2026-01-17T00:10:00+05:30'],
  ])('in %s at %s, %s is %s', (timezone, now, term, value) => {
    // Act
    const result = expectResolved(resolveAt(term, timezone, now));

    // Assess
    expect(result.values).toEqual([value]);
  });

  it('drops milliseconds rather than rounding them up', () => {
    // Prepare
    const now = Date.parse('2026-01-16T15:30:00.999Z');

    // Act
    const result = expectResolved(resolveRelativeDate('now', { timezone: NEW_YORK, now }));

    // Assess
    expect(result.values).toEqual(['2026-01-16T10:30:00-05:00']);
    expect(result.utcValues).toEqual(['2026-01-16T15:30:00Z']);
  });

  it('uses the instant it is given, not the machine clock', () => {
    // Act
    const result = expectResolved(resolveRelativeDate('now', { timezone: 'UTC', now: 0 }));

    // Assess
    expect(result.utcValues).toEqual(['1970-01-01T00:00:00Z']);
  });
});
