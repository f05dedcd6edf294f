import { describe, expect, it } from 'vitest';
import { parseCount } from '../../../../shared/conversation/server-tools/relative-date/number-words';

describe('parseCount', () => {
  it.each([
    ['0', 0],
    ['20', 20],
    ['007', 7],
    ['9999999', 9_999_999],
    ['a', 1],
    ['an', 1],
    ['zero', 0],
    ['one', 1],
    ['twelve', 12],
    ['nineteen', 19],
    ['twenty', 20],
    ['twenty_five', 25],
    ['ninety_nine', 99],
  ])('%j is %d', (text, expected) => {
    // Act
    const count = parseCount(text);

    // Assess
    expect(count).toBe(expected);
  });

  it.each([
    '',
    '12345678',
    '-5',
    '1.5',
    'many',
    'twenty_zero',
    'twenty_twelve',
    'one_two',
    'twenty_one_two',
    'a_few',
  ])('%j is not a count', (text) => {
    // Act
    const count = parseCount(text);

    // Assess
    expect(count).toBeNull();
  });
});
