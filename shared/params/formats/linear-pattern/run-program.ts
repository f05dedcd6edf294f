import { contains, WORD_CHARACTERS } from './character-set';
import { ASCII_WORDS, Operation, type PatternProgram } from './compile-pattern';
import type { Assertion } from './parse-pattern';

/**
 * Instructions visited by every run so far: what the cost bound (cost-bound.ts) promises to stay
 * under, counted so that tests can check the promise without measuring time.
 */
let visited = 0;

/** Instructions visited by all runs since the module loaded (monotonic; tests take differences). */
export function instructionsVisited(): number {
  return visited;
}

/**
 * Whether `program` matches anywhere in `text` (RegExp.prototype.test semantics), by simulating
 * the automaton over all its states at once: every instruction is visited at most once per
 * input position, so the cost is at most (code points + 1) x instructions, whatever the input.
 *
 * That product is what a hostile schema buys (issue 18: 8 KiB against 192 instructions is 1.6
 * million visits), so the loops read typed arrays only, allocate nothing, and test a code point
 * below 128 with one bitmap load. A position is the code-unit offset where a code point starts:
 * it stamps the marks, and the assertions read their neighbours there.
 */
export function runProgram(program: PatternProgram, text: string): boolean {
  const run = new Run(program, text);
  try {
    return run.matches();
  } finally {
    visited += run.steps;
  }
}

class Run {
  steps = 0;
  readonly #marks: Int32Array;
  readonly #stack: Int32Array;

  constructor(
    private readonly program: PatternProgram,
    private readonly text: string,
  ) {
    const size = program.operations.length;
    this.#marks = new Int32Array(size).fill(-1);
    this.#stack = new Int32Array(size);
  }

  matches(): boolean {
    const { text } = this;
    const size = this.program.operations.length;
    let current = new Int32Array(size);
    let next = new Int32Array(size);
    let currentCount = 0;
    for (let position = 0; ; ) {
      // Unanchored: a match may start at every position.
      currentCount = this.close(current, currentCount, 0, position);
      if (currentCount < 0) return true;
      if (position >= text.length) return false;
      const point = text.codePointAt(position) ?? 0;
      const after = position + (point > 0xffff ? 2 : 1);
      let nextCount = 0;
      for (let index = 0; index < currentCount; index += 1) {
        const pc = current[index] ?? 0;
        if (!this.accepts(pc, point)) continue;
        nextCount = this.close(next, nextCount, pc + 1, after);
        if (nextCount < 0) return true;
      }
      [current, next] = [next, current];
      currentCount = nextCount;
      position = after;
    }
  }

  /** Whether the `character` instruction at `pc` consumes `point`. */
  accepts(pc: number, point: number): boolean {
    if (point < 128) {
      const word = this.program.asciiSets[pc * ASCII_WORDS + (point >> 5)] ?? 0;
      return ((word >>> (point & 31)) & 1) === 1;
    }
    return contains(this.program.sets[pc] ?? [], point);
  }

  /**
   * Adds `start` and every state reachable from it without consuming input to `list` (after its
   * first `count`); the new count, or -1 when `match` is reachable.
   */
  close(list: Int32Array, count: number, start: number, position: number): number {
    const marks = this.#marks;
    const stack = this.#stack;
    const { operations, firstTargets, secondTargets } = this.program;
    if (marks[start] === position) return count;
    marks[start] = position;
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
        list[added] = pc;
        added += 1;
        continue;
      }
      if (operation === Operation.assertion && !this.holds(pc, position)) continue;
      // The second target is pushed first, so the first is explored first.
      if (operation === Operation.split) {
        const second = secondTargets[pc] ?? 0;
        if (marks[second] !== position) {
          marks[second] = position;
          stack[depth] = second;
          depth += 1;
        }
      }
      const first = firstTargets[pc] ?? 0;
      if (marks[first] !== position) {
        marks[first] = position;
        stack[depth] = first;
        depth += 1;
      }
    }
    this.steps += steps;
    return added;
  }

  holds(pc: number, position: number): boolean {
    const assertion: Assertion | null = this.program.assertions[pc] ?? null;
    switch (assertion) {
      case 'start':
        return position === 0;
      case 'end':
        return position === this.text.length;
      case 'word_boundary':
        return this.isWordAt(position - 1) !== this.isWordAt(position);
      case 'not_word_boundary':
        return this.isWordAt(position - 1) === this.isWordAt(position);
      default:
        return false;
    }
  }

  /**
   * Whether the code unit at `index` is a word character. Word characters are ASCII, so neither
   * half of a surrogate pair is one, as the code point they make is not.
   */
  isWordAt(index: number): boolean {
    const unit = this.text.charCodeAt(index);
    // NaN (no code unit there) is below nothing: not a word character.
    return unit < 128 && contains(WORD_CHARACTERS, unit);
  }
}
