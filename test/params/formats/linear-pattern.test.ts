import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLinearPattern } from '../../../shared/params/formats/linear-pattern/linear-pattern';

const STATES = 1_000;

function linear(pattern: string) {
  const compiled = compileLinearPattern(pattern, STATES);
  if (!compiled.ok) throw new Error(`${pattern}: ${JSON.stringify(compiled.issues)}`);
  return compiled.value;
}

// Patterns seen in tool schemas, and the corners of the syntax; each is run against JavaScript's
// own engine (u mode, as ajv uses it) on the same inputs.
const PATTERNS = [
  '^[a-z0-9_-]{1,64}$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
  '^(a+)+$',
  '(a|ab)(c|bcd)(d*)',
  'colou?r',
  '^$',
  '',
  'a{2,3}b{0,}c{1}',
  '\\bcat\\b',
  '\\Bat',
  '^(?:[01]\\d|2[0-3]):[0-5]\\d$',
  '^(?<year>\\d{4})$',
  '[\\w.-]+',
  '[^\\W\\d]',
  '^.$',
  '^\\u{1F600}+$',
  '^[\\u00e0-\\u00ff]+$',
  '\\x41\\u0042[\\-\\]]',
  '^(|a)b',
  '(a*)*b',
  '^[\\s\\S]*x$',
  'a|b|^c$',
];

const INPUTS = [
  '',
  'a',
  'aaaa',
  'aaaa!',
  'abcd',
  'abbcd',
  'color',
  'colour',
  'aab',
  'aabccc',
  'a cat sat',
  'concat',
  'bat',
  '23:59',
  '24:00',
  '2026-01-18',
  '2026',
  'user@example.com',
  'not an email',
  'b',
  '\n',
  '😀😀',
  '😀',
  'àé',
  'AB-',
  'AB]',
  'line\nx',
  'c',
  'xc',
  '_',
];

describe('the linear pattern engine agrees with JavaScript RegExp (u mode)', () => {
  it.each(PATTERNS)('%s', (pattern) => {
    // Prepare
    const native = new RegExp(pattern, 'u');
    const engine = linear(pattern);

    // Act
    const results = INPUTS.map((input) => [input, engine.test(input)]);

    // Assess
    expect(results).toEqual(INPUTS.map((input) => [input, native.test(input)]));
  });

  it('on random inputs over a small alphabet', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PATTERNS),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', ' ', '1', '@', '.', '-', '!') }),
        (pattern, input) => linear(pattern).test(input) === new RegExp(pattern, 'u').test(input),
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('patterns the engine refuses, with the reason', () => {
  it.each([
    ['(a)\\1', /backreferences/, 'unsupported'],
    ['(?<x>a)\\k<x>', /backreferences/, 'unsupported'],
    ['a(?=b)', /lookahead and lookbehind/, 'unsupported'],
    ['(?<!a)b', /lookahead and lookbehind/, 'unsupported'],
    ['\\p{L}', /property escapes/, 'unsupported'],
    ['(', /not a valid regular expression/, 'invalid'],
    ['a{2000}', /more than 1000 automaton states/, 'too_large'],
    ['(a{1,100}){1,100}', /more than 1000 automaton states/, 'too_large'],
  ])('%s', (pattern, reason, kind) => {
    // Act
    const compiled = compileLinearPattern(pattern, STATES);

    // Assess
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(compiled.issues[0]?.reason).toMatch(reason);
    expect(compiled.issues[0]?.kind).toBe(kind);
  });
});

describe('repetitions of an empty item compile to nothing, at once', () => {
  it.each([
    ['(?:(?:){99999}){99999}', ['', 'x']],
    ['^a(?:(?:a{0}){99999}){99999}b$', ['ab', 'a', 'aab']],
    ['^(?:){5}(?:){2,}c$', ['c', 'cc', '']],
  ])('%s agrees with RegExp', (pattern, inputs) => {
    // Act
    const compiled = linear(pattern);

    // Assess
    for (const input of inputs) {
      expect(compiled.test(input)).toBe(new RegExp(pattern, 'u').test(input));
    }
  });
});

describe('the engine is linear where backtracking is exponential', () => {
  it('answers ^(a+)+$ on "a" x 32 + "!" (30 s of CPU with RegExp) without a match', () => {
    // Act
    const matched = linear('^(a+)+$').test(`${'a'.repeat(32)}!`);

    // Assess
    expect(matched).toBe(false);
  });
});
