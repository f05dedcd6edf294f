import { contains } from './character-set';
import { Operation } from './compile-pattern';
import { ASCII_WORDS, type RunnableProgram } from './runnable-program';

/** What the assertions at a position see, as bits: a closure's context. */
export const Context = { start: 1, end: 2, wordBefore: 4, wordAfter: 8 } as const;

/**
 * One step of the Thompson automaton over all its states at once. A step starts from a kernel:
 * the instructions just after the characters consumed so far. Its closure follows every split,
 * jump and assertion that holds in the position's context, plus instruction 0 (a match may start
 * anywhere), and stops at the `character` instructions; advancing keeps the pc + 1 of those that
 * accept the next code point, the next kernel. Each closure visits an instruction at most once,
 * so a step costs at most the program's size, whatever the input.
 */
export class AutomatonStep {
  /** Instructions visited by every closure of this step so far (the cost bound's unit). */
  steps = 0;
  readonly #marks: Int32Array;
  readonly #stack: Int32Array;
  /** The character instructions of the last closure; its count is what `closure` returned. */
  readonly #characters: Int32Array;
  #stamp = 0;

  constructor(private readonly program: RunnableProgram) {
    const size = program.operations.length;
    this.#marks = new Int32Array(size);
    this.#stack = new Int32Array(size);
    this.#characters = new Int32Array(size);
  }

  /**
   * Closes the first `length` instructions of `kernel` (and instruction 0) in `context` (Context
   * bits): the count of character instructions reached, or -1 when `match` is reachable.
   */
  closure(kernel: Int32Array, length: number, context: number): number {
    this.#stamp += 1;
    let count = 0;
    for (let index = 0; index <= length; index += 1) {
      count = this.#explore(index < length ? (kernel[index] ?? 0) : 0, context, count);
      if (count < 0) return -1;
    }
    return count;
  }

  /**
   * The kernel after the last closure (of `count` characters) consumes `point`, written into
   * `kernel` (room for the program's size); its length.
   */
  advance(count: number, point: number, kernel: Int32Array): number {
    const characters = this.#characters;
    let length = 0;
    for (let index = 0; index < count; index += 1) {
      const pc = characters[index] ?? 0;
      if (!this.accepts(pc, point)) continue;
      kernel[length] = pc + 1;
      length += 1;
    }
    return length;
  }

  /** Whether the `character` instruction at `pc` consumes `point`: one bitmap load below 128. */
  accepts(pc: number, point: number): boolean {
    if (point < 128) {
      const word = this.program.asciiSets[pc * ASCII_WORDS + (point >> 5)] ?? 0;
      return ((word >>> (point & 31)) & 1) === 1;
    }
    return contains(this.program.sets[pc] ?? [], point);
  }

  /** Adds `start` and what it reaches without consuming to the characters; -1 on `match`. */
  #explore(start: number, context: number, count: number): number {
    const marks = this.#marks;
    const stack = this.#stack;
    const stamp = this.#stamp;
    const { operations, firstTargets, secondTargets } = this.program;
    if (marks[start] === stamp) return count;
    marks[start] = stamp;
    stack[0] = start;
    let depth = 1;
    let added = count;
    let steps = 0;
    while (depth > 0) {
      steps += 1;
      depth -= 1;
      const pc = stack[depth] ?? 0;
      const operation = operations[pc];
      if (operation === Operation.match) {
        this.steps += steps;
        return -1;
      }
      if (operation === Operation.character) {
        this.#characters[added] = pc;
        added += 1;
        continue;
      }
      if (operation === Operation.assertion && !this.#holds(pc, context)) continue;
      if (operation === Operation.split) {
        const second = secondTargets[pc] ?? 0;
        if (marks[second] !== stamp) {
          marks[second] = stamp;
          stack[depth] = second;
          depth += 1;
        }
      }
      const first = firstTargets[pc] ?? 0;
      if (marks[first] !== stamp) {
        marks[first] = stamp;
        stack[depth] = first;
        depth += 1;
      }
    }
    this.steps += steps;
    return added;
  }

  #holds(pc: number, context: number): boolean {
    const wordBefore = (context & Context.wordBefore) !== 0;
    const wordAfter = (context & Context.wordAfter) !== 0;
    switch (this.program.assertions[pc]) {
      case 'start':
        return (context & Context.start) !== 0;
      case 'end':
        return (context & Context.end) !== 0;
      case 'word_boundary':
        return wordBefore !== wordAfter;
      case 'not_word_boundary':
        return wordBefore === wordAfter;
      default:
        return false;
    }
  }
}
