import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../../shared/params/formats/linear-pattern/compile-pattern';
import { parsePattern } from '../../../shared/params/formats/linear-pattern/parse-pattern';
import {
  instructionsVisited,
  MEMO_LIMITS,
  type MemoLimits,
  runProgram,
  stepsMissed,
} from '../../../shared/params/formats/linear-pattern/run-program';
import {
  type RunnableProgram,
  runnableProgram,
} from '../../../shared/params/formats/linear-pattern/runnable-program';
import { seededText } from '../../support/seeded-text';

/** No memory at all: every character is a step of the automaton. */
const STEPPING: MemoLimits = { ...MEMO_LIMITS, states: 0, kernelInstructions: 0 };
/** Full after a few states: a run switches to stepping midway. */
const TINY: MemoLimits = { ...MEMO_LIMITS, states: 3, kernelInstructions: 12, otherLinks: 1 };
/** Gives up remembering after a few misses. */
const IMPATIENT: MemoLimits = { ...MEMO_LIMITS, freeMisses: 3, missShare: 1_000 };
const LIMITS = [MEMO_LIMITS, STEPPING, TINY, IMPATIENT];
/** `npm test` runs a few thousand cases; `npm run fuzz` sets FUZZ_RUNS=100000. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);

function program(pattern: string): RunnableProgram {
  const parsed = parsePattern(pattern);
  if (!parsed.ok) throw new Error(`${pattern}: ${parsed.issues.join(', ')}`);
  const compiled = compilePattern(parsed.value, 10_000);
  if (!compiled.ok) throw new Error(`${pattern} is too large`);
  return runnableProgram(compiled.value);
}

/** The answer of a run, the instructions it visited and the steps it missed. */
function counted(compiled: RunnableProgram, text: string, limits: MemoLimits) {
  const before = { visited: instructionsVisited(), missed: stepsMissed() };
  const matched = runProgram(compiled, text, limits);
  return {
    matched,
    visited: instructionsVisited() - before.visited,
    missed: stepsMissed() - before.missed,
  };
}

// Random patterns over a few atoms: classes, assertions (\b reads the characters around it),
// an astral character, and every combinator the engine compiles.
const atom = fc.constantFrom(
  'a',
  'b',
  '[ab]',
  '[^a]',
  '.',
  '\\w',
  '\\W',
  '\\b',
  '\\B',
  '^',
  '$',
  '😀',
);
const patterns = fc.letrec<{ pattern: string }>((tie) => ({
  pattern: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('pattern'), tie('pattern')).map(([left, right]) => `${left}${right}`),
    fc.tuple(tie('pattern'), tie('pattern')).map(([left, right]) => `(?:${left}|${right})`),
    fc
      .tuple(tie('pattern'), fc.constantFrom('*', '+', '?', '{2}', '{0,3}', '{1,}'))
      .map(([item, quantifier]) => `(?:${item})${quantifier}`),
  ),
})).pattern;
const texts = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '_', '😀', 'é'), maxLength: 60 });

describe('a run that remembers its steps answers as RegExp does, whatever it may remember', () => {
  it('on random patterns and texts, with room for every state, for none, for three, and for few misses', () => {
    fc.assert(
      fc.property(patterns, texts, (pattern, text) => {
        // V8 also tries \B between the halves of a surrogate pair ("a😀a" matches), where the
        // spec (and this engine) steps over the pair; the next property compares those runs.
        fc.pre(!(pattern.includes('\\B') && /[\u{10000}-\u{10FFFF}]/u.test(text)));
        const compiled = program(pattern);
        const native = new RegExp(pattern, 'u').test(text);
        return LIMITS.every((limits) => runProgram(compiled, text, limits) === native);
      }),
      { numRuns: RUNS },
    );
  });

  it('never visits more instructions than stepping every character', () => {
    fc.assert(
      fc.property(patterns, texts, (pattern, text) => {
        const compiled = program(pattern);
        const remembered = counted(compiled, text, MEMO_LIMITS);
        const stepped = counted(compiled, text, STEPPING);
        // A closure that reaches `match` stops there, and where depends on the order it explores
        // (a remembered kernel is sorted): that last closure may differ, by a program at most.
        const slack = compiled.operations.length;
        return (
          remembered.visited <= stepped.visited + slack && remembered.matched === stepped.matched
        );
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});

describe("what remembering buys on issue 18's first costliest schema, counted", () => {
  it('8 KiB of ab against [ab]{0,95}c: the 96 sets once, then a lookup a character', () => {
    // Prepare
    const compiled = program('[ab]{0,95}c');
    const text = 'ab'.repeat(4_075);

    // Act
    const remembered = counted(compiled, text, MEMO_LIMITS);
    const stepped = counted(compiled, text, STEPPING);

    // Assess
    expect(remembered.matched).toBe(false);
    expect(stepped.matched).toBe(false);
    expect(stepped.visited).toBeGreaterThan(1_500_000);
    // 97 states (no count of the class yet, one to 95, and the set it keeps), each closed once.
    expect(remembered.visited).toBeLessThan(100 * compiled.operations.length);
  });

  it('a text that meets a new set at every character fills the memory, then steps to its end', () => {
    // Prepare: `a` 96 characters before the end tells every suffix apart (2^96 sets).
    const compiled = program('(?:a|b)*a[ab]{95}c');
    const text = seededText(8_150, 'ab', 7);

    // Act
    const remembered = counted(compiled, text, MEMO_LIMITS);
    const stepped = counted(compiled, text, STEPPING);

    // Assess
    expect(remembered.matched).toBe(stepped.matched);
    expect(remembered.matched).toBe(/(?:a|b)*a[ab]{95}c/u.test(text));
    expect(remembered.visited).toBeLessThanOrEqual(stepped.visited + compiled.operations.length);
    expect(remembered.missed).toBeLessThanOrEqual(MEMO_LIMITS.states + 1);
  });

  it('a text that misses among known sets at every character stops remembering (a second reading)', () => {
    // Prepare: each `!` sends the automaton back to sets it met, each new letter is a step it has
    // not taken from them: every character a miss, each a key to write, 4.7 times a step's cost.
    const pattern = '(?:[^!]{190})*!?#';
    const compiled = program(pattern);
    const letters = Array.from({ length: 94 }, (_, index) => String.fromCharCode(33 + index));
    const text = letters
      .filter((letter) => !'!#"\\'.includes(letter))
      .map((letter) => `${letter.repeat(190)}!`)
      .join('')
      .slice(0, 8_192);

    // Act
    const remembered = counted(compiled, text, MEMO_LIMITS);
    const stepped = counted(compiled, text, STEPPING);

    // Assess
    expect(remembered.matched).toBe(new RegExp(pattern, 'u').test(text));
    // Misses stop at the allowance (256 plus one character in 8), not at every character.
    expect(remembered.missed).toBeLessThan(text.length / 4);
    expect(remembered.visited).toBeLessThanOrEqual(stepped.visited + compiled.operations.length);
  });
});
