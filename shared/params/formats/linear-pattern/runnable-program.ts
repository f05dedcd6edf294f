import type { CharacterSet } from './character-set';
import type { PatternProgram } from './compile-pattern';
import type { Assertion } from './parse-pattern';

/**
 * A compiled program as a run reads it: typed arrays indexed by instruction (pc), the split's
 * targets apart, and each set's code points below 128 as a bitmap (4 words per instruction) so a
 * step tests most characters with one load instead of a search. Built on a pattern's first run:
 * the cost bound compiles every pattern of a command set only to count its instructions.
 */
export interface RunnableProgram {
  readonly operations: Uint8Array;
  readonly firstTargets: Int32Array;
  readonly secondTargets: Int32Array;
  readonly sets: readonly (CharacterSet | null)[];
  readonly asciiSets: Uint32Array;
  readonly assertions: readonly (Assertion | null)[];
  /** Whether a `\b` or `\B` reads the characters around a position. */
  readonly readsWords: boolean;
}

/** Words of an instruction's ASCII bitmap: 128 code points, 32 a word. */
export const ASCII_WORDS = 4;

export function runnableProgram(program: PatternProgram): RunnableProgram {
  const size = program.operations.length;
  const operations = new Uint8Array(size);
  const firstTargets = new Int32Array(size);
  const secondTargets = new Int32Array(size);
  const asciiSets = new Uint32Array(size * ASCII_WORDS);
  // An unrolled repetition repeats one set object: its bitmap is built once.
  const bitmaps = new Map<CharacterSet, Uint32Array>();
  let readsWords = false;
  for (let pc = 0; pc < size; pc += 1) {
    operations[pc] = program.operations[pc] ?? 0;
    const [first, second] = program.targets[pc] ?? [0, 0];
    firstTargets[pc] = first;
    secondTargets[pc] = second;
    const set = program.sets[pc] ?? null;
    if (set !== null) {
      const bitmap = bitmaps.get(set) ?? asciiBitmap(set);
      bitmaps.set(set, bitmap);
      asciiSets.set(bitmap, pc * ASCII_WORDS);
    }
    const assertion = program.assertions[pc];
    readsWords ||= assertion === 'word_boundary' || assertion === 'not_word_boundary';
  }
  const { sets, assertions } = program;
  return { operations, firstTargets, secondTargets, sets, asciiSets, assertions, readsWords };
}

/** The code points of `set` below 128 as 4 words of bits, a word at a time per range. */
function asciiBitmap(set: CharacterSet): Uint32Array {
  const bitmap = new Uint32Array(ASCII_WORDS);
  for (let index = 0; index + 1 < set.length; index += 2) {
    const low = set[index] ?? 0;
    const high = Math.min(set[index + 1] ?? 0, 127);
    for (let word = low >> 5; word <= high >> 5; word += 1) {
      const from = Math.max(low, word * 32) & 31;
      const width = (Math.min(high, word * 32 + 31) & 31) - from + 1;
      const bits = width === 32 ? 0xffffffff : ((1 << width) - 1) << from;
      bitmap[word] = (bitmap[word] ?? 0) | bits;
    }
  }
  return bitmap;
}
