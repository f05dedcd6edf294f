import { contains, WORD_CHARACTERS } from './character-set';
import { Operation, type PatternProgram } from './compile-pattern';
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
 */
export function runProgram(program: PatternProgram, text: string): boolean {
  const points = Array.from(text, (character) => character.codePointAt(0) ?? 0);
  const size = program.operations.length;
  const marks = new Int32Array(size).fill(-1);
  const stack = new Int32Array(size);
  let current = new Int32Array(size);
  let next = new Int32Array(size);
  let currentCount = 0;

  // Adds `start` and every state reachable from it without consuming input to `list`.
  const close = (list: Int32Array, count: number, start: number, position: number) => {
    let added = count;
    let depth = 0;
    if (marks[start] === position) return added;
    marks[start] = position;
    stack[depth++] = start;
    while (depth > 0) {
      visited += 1;
      const pc = stack[--depth] ?? 0;
      const [first, second] = program.targets[pc] ?? [0, 0];
      const operation = program.operations[pc];
      if (operation === Operation.match) return -1;
      if (operation === Operation.character) {
        list[added++] = pc;
        continue;
      }
      if (
        operation === Operation.assertion &&
        !holds(program.assertions[pc] ?? null, points, position)
      )
        continue;
      for (const target of operation === Operation.split ? [second, first] : [first]) {
        if (marks[target] === position) continue;
        marks[target] = position;
        stack[depth++] = target;
      }
    }
    return added;
  };

  for (let position = 0; position <= points.length; position += 1) {
    currentCount = close(current, currentCount, 0, position);
    if (currentCount < 0) return true;
    if (position === points.length) return false;
    const codePoint = points[position] ?? 0;
    let nextCount = 0;
    for (let index = 0; index < currentCount; index += 1) {
      const pc = current[index] ?? 0;
      if (!contains(program.sets[pc] ?? [], codePoint)) continue;
      nextCount = close(next, nextCount, pc + 1, position + 1);
      if (nextCount < 0) return true;
    }
    [current, next] = [next, current];
    currentCount = nextCount;
  }
  return false;
}

function holds(assertion: Assertion | null, points: readonly number[], position: number): boolean {
  switch (assertion) {
    case 'start':
      return position === 0;
    case 'end':
      return position === points.length;
    case 'word_boundary':
      return isWordAt(points, position - 1) !== isWordAt(points, position);
    case 'not_word_boundary':
      return isWordAt(points, position - 1) === isWordAt(points, position);
    default:
      return false;
  }
}

function isWordAt(points: readonly number[], index: number): boolean {
  const point = points[index];
  return point !== undefined && contains(WORD_CHARACTERS, point);
}
