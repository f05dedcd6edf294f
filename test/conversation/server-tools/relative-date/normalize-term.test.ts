import { describe, expect, it } from 'vitest';
import { normalizeTerm } from '../../../../shared/conversation/server-tools/relative-date/normalize-term';

describe('normalizeTerm', () => {
  it.each([
    ['tomorrow', 'tomorrow'],
    ['  Tomorrow  ', 'tomorrow'],
    ['Next Friday', 'next_friday'],
    ['next-friday', 'next_friday'],
    ['NEXT__FRIDAY', 'next_friday'],
    ['next \t friday', 'next_friday'],
    ['day after tomorrow', 'day_after_tomorrow'],
    ['the day after tomorrow', 'day_after_tomorrow'],
    ['"tonight"', 'tonight'],
    ["'this weekend'", 'this_weekend'],
    ['tomorrow.', 'tomorrow'],
    ['tomorrow?', 'tomorrow'],
    ['in 20 minutes', 'in_20_minutes'],
    ['in-20-minutes', 'in_20_minutes'],
    ['right now', 'now'],
    ['weekend', 'this_weekend'],
    ['today evening', 'this_evening'],
    ['in half an hour', 'in_30_minutes'],
    ['_tomorrow_', 'tomorrow'],
    ['', ''],
    ['constructor', 'constructor'],
  ])('%j becomes %j', (raw, expected) => {
    // Act
    const normalized = normalizeTerm(raw);

    // Assess
    expect(normalized).toBe(expected);
  });

  it('keeps a decimal point inside the term (in 1.5 hours is not in 15 hours)', () => {
    // Act
    const normalized = normalizeTerm('in 1.5 hours');

    // Assess
    expect(normalized).toBe('in_1.5_hours');
  });
});
