import { describe, expect, it } from 'vitest';
import {
  firstInexactNumber,
  isRawJsonNumber,
  mayHoldInexactNumber,
  parseJsonExact,
} from '../../../shared/params/types/exact-numbers';

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

describe('mayHoldInexactNumber: numbers outside strings only', () => {
  it.each([
    ['an exponent', '{"n": 1e400}'],
    ['16 digits', '[9007199254740993]'],
    ['an exponent after a string with an escaped quote', '{"s": "a\\"b", "n": 2E5}'],
  ])('true for %s', (_case, text) => {
    expect(mayHoldInexactNumber(text)).toBe(true);
  });

  it.each([
    ['a digit then an "e" in an id', '{"conversation_id": "p-9e1f", "n": [1, 2]}'],
    ['16 digits in a string', '{"phone": "0049301234567890123"}'],
    ['an escaped quote inside the string', '{"s": "\\"9e\\"", "n": 3}'],
    ['a string never closed', '{"s": "9e'],
  ])('false for %s', (_case, text) => {
    expect(mayHoldInexactNumber(text)).toBe(false);
  });
});

describe('firstInexactNumber', () => {
  it.each([
    ['a top-level field', '{"n": 1e400}', ['n'], '1e400'],
    ['an array element', '{"list": [1, 2, 9007199254740993]}', ['list', '2'], '9007199254740993'],
    ['deep in objects', '{"a": {"b": [{"c": 1e-400}]}}', ['a', 'b', '0', 'c'], '1e-400'],
    ['a key named __proto__', '{"__proto__": {"x": 1e400}}', ['__proto__', 'x'], '1e400'],
  ])('names the path of %s', (_case, text, path, source) => {
    expect(firstInexactNumber(parseJsonExact(text))).toEqual({ path, source });
  });

  it.each([
    ['exact numbers only', '{"a": [1, 2.5, {"b": 900719925474099}]}'],
    ['a 15-digit integer beside an "e" in a word', '{"n": 123456789012345, "w": "e"}'],
    ['a primitive', '7'],
  ])('finds nothing in %s', (_case, text) => {
    expect(firstInexactNumber(parseJsonExact(text))).toBeNull();
  });
});
