import { describe, expect, it } from 'vitest';
import { parseRelativeDuration } from '../../../../shared/conversation/server-tools/relative-date/relative-duration';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('parseRelativeDuration', () => {
  it.each([
    ['20_minutes', 0, 20 * MINUTE],
    ['1_minute', 0, MINUTE],
    ['5_mins', 0, 5 * MINUTE],
    ['45_seconds', 0, 45_000],
    ['2_hours', 0, 2 * HOUR],
    ['2_hrs', 0, 2 * HOUR],
    ['an_hour', 0, HOUR],
    ['twenty_five_minutes', 0, 25 * MINUTE],
    ['1.5_hours', 0, 90 * MINUTE],
    ['1_hour_and_30_minutes', 0, 90 * MINUTE],
    ['1_hour,_30_minutes', 0, 90 * MINUTE],
    ['1_hour_30_minutes', 0, 90 * MINUTE],
    ['an_hour_and_a_half', 0, 90 * MINUTE],
    ['3_days', 3, 0],
    ['a_day', 1, 0],
    ['2_weeks', 14, 0],
    ['2_days_and_3_hours', 2, 3 * HOUR],
    ['1_week_2_days_3_hours_4_minutes', 9, 3 * HOUR + 4 * MINUTE],
  ])('%s is %d days and %d ms', (text, days, milliseconds) => {
    // Act
    const duration = parseRelativeDuration(text);

    // Assess
    expect(duration).toEqual({ days, milliseconds });
  });

  it.each([
    '',
    'minutes',
    '20',
    'twenty',
    'a_few_minutes',
    'couple_of_hours',
    '1.5_days',
    'a_half',
    '20_minutes_tomorrow',
    '1_day_1_day_1_day_1_day_1_day',
    'the_morning',
  ])('%j is not a duration', (text) => {
    // Act
    const duration = parseRelativeDuration(text);

    // Assess
    expect(duration).toBeNull();
  });
});
