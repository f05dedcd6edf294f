import { describe, expect, it } from 'vitest';
import { expectResolved, resolveAt } from './resolve-at';

// Day terms on and around the days whose length is not 24 hours.
describe('resolveRelativeDate: day starts on DST change days', () => {
  it.each([
    // New York, spring forward on Sunday 2026-03-08 at 02:00 (EST -05:00 to EDT -04:00).
    [
      'America/New_York',
      '2026-03-07T12:00:00-05:00',
      'tomorrow',
      '2026-03-08T00:00:00-05:00',
      '2026-03-08T05:00:00Z',
    ],
    [
      'America/New_York',
      '2026-03-07T12:00:00-05:00',
      'day_after_tomorrow',
      '2026-03-09T00:00:00-04:00',
      '2026-03-09T04:00:00Z',
    ],
    [
      'America/New_York',
      '2026-03-08T01:59:59-05:00',
      'today',
      '2026-03-08T00:00:00-05:00',
      '2026-03-08T05:00:00Z',
    ],
    [
      'America/New_York',
      '2026-03-08T03:00:00-04:00',
      'today',
      '2026-03-08T00:00:00-05:00',
      '2026-03-08T05:00:00Z',
    ],
    [
      'America/New_York',
      '2026-03-08T12:00:00-04:00',
      'tomorrow',
      '2026-03-09T00:00:00-04:00',
      '2026-03-09T04:00:00Z',
    ],
    [
      'America/New_York',
      '2026-03-08T12:00:00-04:00',
      'yesterday',
      '2026-03-07T00:00:00-05:00',
      '2026-03-07T05:00:00Z',
    ],
    // New York, fall back on Sunday 2026-11-01 at 02:00 (EDT -04:00 to EST -05:00).
    [
      'America/New_York',
      '2026-10-31T12:00:00-04:00',
      'tomorrow',
      '2026-11-01T00:00:00-04:00',
      '2026-11-01T04:00:00Z',
    ],
    [
      'America/New_York',
      '2026-11-01T01:30:00-04:00',
      'today',
      '2026-11-01T00:00:00-04:00',
      '2026-11-01T04:00:00Z',
    ],
    [
      'America/New_York',
      '2026-11-01T01:30:00-05:00',
      'today',
      '2026-11-01T00:00:00-04:00',
      '2026-11-01T04:00:00Z',
    ],
    [
      'America/New_York',
      '2026-11-01T12:00:00-05:00',
      'tomorrow',
      '2026-11-02T00:00:00-05:00',
      '2026-11-02T05:00:00Z',
    ],
    [
      'America/New_York',
      '2026-11-01T12:00:00-05:00',
      'yesterday',
      '2026-10-31T00:00:00-04:00',
      '2026-10-31T04:00:00Z',
    ],
    // Berlin, spring forward 2026-03-29 and fall back 2026-10-25.
    [
      'Europe/Berlin',
      '2026-03-28T12:00:00+01:00',
      'tomorrow',
      '2026-03-29T00:00:00+01:00',
      '2026-03-28T23:00:00Z',
    ],
    [
      'Europe/Berlin',
      '2026-03-29T12:00:00+02:00',
      'tomorrow',
      '2026-03-30T00:00:00+02:00',
      '2026-03-29T22:00:00Z',
    ],
    [
      'Europe/Berlin',
      '2026-10-25T12:00:00+01:00',
      'today',
      '2026-10-25T00:00:00+02:00',
      '2026-10-24T22:00:00Z',
    ],
    [
      'Europe/Berlin',
      '2026-10-25T12:00:00+01:00',
      'tomorrow',
      '2026-10-26T00:00:00+01:00',
      '2026-10-25T23:00:00Z',
    ],
    // Auckland, fall back 2026-04-05 (03:00 NZDT to 02:00 NZST) and spring forward 2026-09-27.
    [
      'Pacific/Auckland',
      '2026-04-04T12:00:00+13:00',
      'tomorrow',
      '2026-04-05T00:00:00+13:00',
      '2026-04-04T11:00:00Z',
    ],
    [
      'Pacific/Auckland',
      '2026-04-05T12:00:00+12:00',
      'tomorrow',
      '2026-04-06T00:00:00+12:00',
      '2026-04-05T12:00:00Z',
    ],
    [
      'Pacific/Auckland',
      '2026-09-27T12:00:00+13:00',
      'today',
      '2026-09-27T00:00:00+12:00',
      '2026-09-26T12:00:00Z',
    ],
    [
      'Pacific/Auckland',
      '2026-09-27T12:00:00+13:00',
      'tomorrow',
      '2026-09-28T00:00:00+13:00',
      '2026-09-27T11:00:00Z',
    ],
    // Kolkata has no DST: the same half-hour offset all year.
    [
      'Asia/Kolkata',
      '2026-03-08T12:00:00+05:30',
      'tomorrow',
      '2026-03-09T00:00:00+05:30',
      '2026-03-08T18:30:00Z',
    ],
    [
      'Asia/Kolkata',
      '2026-11-01T12:00:00+05:30',
      'yesterday',
      '2026-10-31T00:00:00+05:30',
      '2026-10-30T18:30:00Z',
    ],
  ])('in %s at %s, %s starts %s (%s)', (timezone, now, term, value, utcValue) => {
    // Act
    const result = expectResolved(resolveAt(term, timezone, now));

    // Assess
    expect(result.values).toEqual([value]);
    expect(result.utcValues).toEqual([utcValue]);
  });

  it('starts a day whose midnight is skipped at the first real instant (Santiago, 2026-09-06)', () => {
    // Prepare: Chile moves its clocks from 00:00 to 01:00 on Sunday 2026-09-06.
    const now = '2026-09-05T12:00:00-04:00';

    // Act
    const result = expectResolved(resolveAt('tomorrow', 'America/Santiago', now));

    // Assess
    expect(result.values).toEqual(['2026-09-06T01:00:00-03:00']);
    expect(result.utcValues).toEqual(['2026-09-06T04:00:00Z']);
  });
});
