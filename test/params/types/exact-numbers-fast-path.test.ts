import { describe, expect, it } from 'vitest';
import { isRawJsonNumber, parseJsonExact } from '../../../shared/params/types/exact-numbers';

describe('parseJsonExact: text without an exponent or 16 digits skips the reviver', () => {
  it.each([
    ['an integer beyond 2^53 (16 digits)', '9007199254740993'],
    ['an exponent out of range', '1e400'],
    ['an exponent that underflows', '1e-400'],
    ['a decimal that underflows without an exponent', `0.${'0'.repeat(400)}1`],
    ['an integer that overflows without an exponent', '9'.repeat(400)],
  ])('%s is still kept as its text', (_name, number) => {
    // Act
    const parsed = parseJsonExact(`{"a": [1, ${number}]}`) as { a: unknown[] };

    // Assess
    expect(isRawJsonNumber(parsed.a[1])).toBe(true);
    expect(JSON.stringify(parsed)).toBe(`{"a":[1,${number}]}`);
  });

  it('plain text parses as JSON.parse does, numbers as numbers', () => {
    // Arrange
    const text = '{"t": "x", "n": [1, -2.5, 900719925474099, 0], "o": {"__proto__": 1}}';

    // Act
    const parsed = parseJsonExact(text);

    // Assess
    expect(parsed).toEqual(JSON.parse(text));
    expect(Object.hasOwn(parsed as object, 't')).toBe(true);
  });
});
