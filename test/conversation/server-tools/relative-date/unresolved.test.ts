import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_TERMS,
  MAX_TERM_LENGTH,
  resolveRelativeDate,
} from '../../../../shared/conversation/server-tools/relative-date';
import { at } from './resolve-at';

const CONTEXT = { timezone: 'America/New_York', now: at('2026-01-16T10:30:00-05:00') };

describe('resolveRelativeDate: what it cannot resolve', () => {
  it.each([
    'gibberish',
    'the blue one',
    '',
    '   ',
    '___',
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'next_blursday',
    'in_many_minutes',
    'sometime',
    'in_twenty_zero_minutes',
    'in_x_minutes',
  ])('answers %j with the accepted terms, not an error', (term) => {
    // Act
    const result = resolveRelativeDate(term, CONTEXT);

    // Assess
    expect(result).toMatchObject({ resolved: false, term, acceptedTerms: ACCEPTED_TERMS });
    expect(result.resolved === false && result.message).toContain('accepted terms');
  });

  it('lists the named terms of the issue among the accepted terms', () => {
    // Assess
    expect(ACCEPTED_TERMS).toEqual(
      expect.arrayContaining([
        'today',
        'now',
        'tomorrow',
        'day_after_tomorrow',
        'this_weekend',
        'next_week',
        'next_monday',
        'last_sunday',
        'tonight',
        'tomorrow_night',
        'last_night',
        'in_N_minutes',
        'in_N_hours',
        'in_N_days',
      ]),
    );
  });

  it.each(['Mars/Olympus_Mons', '', 'UTC+5', 'New York', 'America/New_York '])(
    'answers an invalid zone %j with a message, never a throw',
    (timezone) => {
      // Act
      const result = resolveRelativeDate('tomorrow', { timezone, now: CONTEXT.now });

      // Assess
      expect(result).toMatchObject({ resolved: false, term: 'tomorrow' });
      expect(result.resolved === false && result.message).toContain('time zone');
    },
  );

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -Number.MAX_VALUE, 8.64e15 + 1])(
    'answers an unusable reference instant %d with a message',
    (now) => {
      // Act
      const result = resolveRelativeDate('tomorrow', { timezone: 'UTC', now });

      // Assess
      expect(result).toMatchObject({ resolved: false });
      expect(result.resolved === false && result.message).toContain('reference time');
    },
  );

  it('answers a date beyond the representable range with a message', () => {
    // Prepare: the last representable instant; tomorrow lies past it.
    const now = 8.64e15;

    // Act
    const result = resolveRelativeDate('tomorrow', { timezone: 'UTC', now });

    // Assess
    expect(result).toMatchObject({ resolved: false });
    expect(result.resolved === false && result.message).toContain('range');
  });

  it('refuses a term longer than the limit and echoes it cut to the limit', () => {
    // Prepare
    const term = `tomorrow ${'x'.repeat(MAX_TERM_LENGTH)}`;

    // Act
    const result = resolveRelativeDate(term, CONTEXT);

    // Assess
    expect(result).toMatchObject({ resolved: false, term: term.slice(0, MAX_TERM_LENGTH) });
  });

  it('survives a caller that breaks the types (a number as the term, no zone)', () => {
    // Prepare: the JSON from a model can hold anything; the types cannot promise otherwise.
    const term = 42 as unknown as string;
    const context = {} as unknown as typeof CONTEXT;

    // Act
    const result = resolveRelativeDate(term, context);

    // Assess
    expect(result).toMatchObject({ resolved: false, term: '' });
  });
});
