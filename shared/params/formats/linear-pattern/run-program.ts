import { AutomatonStep, Context } from './automaton-step';
import { contains, WORD_CHARACTERS } from './character-set';
import type { RunnableProgram } from './runnable-program';

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
 * What one run may remember, and how often it may miss. Past `states` or `kernelInstructions`, or
 * `otherLinks` steps on code points above 127, steps are computed and not kept: a run's memory is
 * bounded by these and by its text. A miss (a step not kept yet) costs a step plus the kernel's
 * key, several steps' worth, and a text can miss among a few known states at every character
 * (issue 18's second reading: 43 ms where stepping takes 9). So a run that has missed more than
 * `freeMisses` plus one character in `missShare` steps in place from there, as RE2 gives up its
 * DFA when the cache thrashes: remembering never costs much more than stepping.
 */
export interface MemoLimits {
  readonly states: number;
  readonly kernelInstructions: number;
  readonly otherLinks: number;
  readonly freeMisses: number;
  readonly missShare: number;
}

export const MEMO_LIMITS: MemoLimits = Object.freeze({
  states: 256,
  kernelInstructions: 1 << 15,
  otherLinks: 4_096,
  // As many as the states it may keep: meeting them for the first time is all misses.
  freeMisses: 256,
  missShare: 8,
});

/** Steps computed by memoizing runs (misses), counted like `visited` for the tests. */
let misses = 0;

/** Misses of all runs since the module loaded (monotonic; tests take differences). */
export function stepsMissed(): number {
  return misses;
}

/** A set of automaton states a run has met: its kernel, what the last character was, its steps. */
interface RunState {
  readonly kernel: Int32Array;
  readonly context: number;
  /** Where each ASCII code point leads, once computed (MATCHED when it completes a match). */
  readonly ascii: (RunState | undefined)[] | null;
  readonly other: Map<number, RunState> | null;
}

const MATCHED: RunState = { kernel: new Int32Array(0), context: 0, ascii: null, other: null };

/**
 * Whether `program` matches anywhere in `text` (RegExp.prototype.test semantics), by simulating
 * the automaton over all its states at once (automaton-step.ts): every step visits each
 * instruction at most once, so a run costs at most (code points + 1) x instructions visits,
 * whatever the input.
 *
 * A step depends only on the set of states and the code point, so a run remembers each step it
 * took, a lazily built DFA as RE2 runs one: a text that keeps the automaton in a few sets (issue
 * 18's 8 KiB of `ab` against `[ab]{0,95}c`: 1.6 million visits) costs a table lookup a character
 * once those sets are met. What it remembers is bounded by `limits`; past them it steps as before.
 */
export function runProgram(
  program: RunnableProgram,
  text: string,
  limits: MemoLimits = MEMO_LIMITS,
): boolean {
  const run = new MemoizedRun(program, limits);
  try {
    return run.matches(text);
  } finally {
    visited += run.step.steps;
    misses += run.misses;
  }
}

class MemoizedRun {
  readonly step: AutomatonStep;
  misses = 0;
  readonly #known = new Map<string, RunState>();
  #kernelInstructions = 0;
  #otherLinks = 0;
  /** Kernels being built: room for every instruction. */
  #kernel: Int32Array;
  #spare: Int32Array;

  constructor(
    private readonly program: RunnableProgram,
    private readonly limits: MemoLimits,
  ) {
    this.step = new AutomatonStep(program);
    this.#kernel = new Int32Array(program.operations.length);
    this.#spare = new Int32Array(program.operations.length);
  }

  matches(text: string): boolean {
    let state = this.#state(new Int32Array(0), Context.start);
    for (let position = 0; position < text.length; ) {
      if (state.ascii === null) return this.#stepToEnd(state, text, position);
      const point = text.codePointAt(position) ?? 0;
      const known = point < 128 ? state.ascii[point] : state.other?.get(point);
      const allowance = this.limits.freeMisses + position / this.limits.missShare;
      if (known === undefined && this.misses >= allowance) {
        return this.#stepToEnd(state, text, position);
      }
      const next = known ?? this.#next(state, point);
      if (next === MATCHED) return true;
      state = next;
      position += point > 0xffff ? 2 : 1;
    }
    return this.step.closure(state.kernel, state.kernel.length, state.context | Context.end) < 0;
  }

  /** The state after `state` consumes `point`, computed, and kept in `state` when both are kept. */
  #next(state: RunState, point: number): RunState {
    this.misses += 1;
    const word = isWord(point);
    const context = state.context | (word ? Context.wordAfter : 0);
    const count = this.step.closure(state.kernel, state.kernel.length, context);
    if (count < 0) return this.#link(state, point, MATCHED);
    const length = this.step.advance(count, point, this.#kernel);
    const kernel = this.#kernel.slice(0, length).sort();
    return this.#link(state, point, this.#state(kernel, this.#contextAfter(word)));
  }

  #link(state: RunState, point: number, next: RunState): RunState {
    // A state not kept is linked to from none: the memory bound holds.
    if (next !== MATCHED && next.ascii === null) return next;
    if (point < 128) {
      if (state.ascii !== null) state.ascii[point] = next;
    } else if (state.other !== null && this.#otherLinks < this.limits.otherLinks) {
      state.other.set(point, next);
      this.#otherLinks += 1;
    }
    return next;
  }

  /** Only a program with \b or \B tells states apart by their last character. */
  #contextAfter(word: boolean): number {
    return word && this.program.readsWords ? Context.wordBefore : 0;
  }

  /** The state of `kernel` after a character of `context`: the one met before, or a new one. */
  #state(kernel: Int32Array, context: number): RunState {
    // Instructions are numbered below the patternStates limit (1,000), each a UTF-16 unit.
    const key =
      kernel.length < KEY_UNITS_LIMIT && this.program.operations.length < 0xffff
        ? String.fromCharCode(context, ...kernel)
        : `${context}:${kernel.join(',')}`;
    const known = this.#known.get(key);
    if (known !== undefined) return known;
    const full =
      this.#known.size >= this.limits.states ||
      this.#kernelInstructions + kernel.length > this.limits.kernelInstructions;
    if (full) return { kernel, context, ascii: null, other: null };
    const state: RunState = { kernel, context, ascii: new Array(128), other: new Map() };
    this.#known.set(key, state);
    this.#kernelInstructions += kernel.length;
    return state;
  }

  /**
   * The rest of the text from `state` once the run remembers no more: a step a character, in
   * place, without the keys and copies of states to remember (as costly as the automaton alone).
   */
  #stepToEnd(state: RunState, text: string, from: number): boolean {
    let kernel = this.#kernel;
    let spare = this.#spare;
    kernel.set(state.kernel);
    let length = state.kernel.length;
    let context = state.context;
    for (let position = from; position < text.length; ) {
      const point = text.codePointAt(position) ?? 0;
      const word = isWord(point);
      const count = this.step.closure(kernel, length, context | (word ? Context.wordAfter : 0));
      if (count < 0) return true;
      length = this.step.advance(count, point, spare);
      [kernel, spare] = [spare, kernel];
      context = this.#contextAfter(word);
      position += point > 0xffff ? 2 : 1;
    }
    return this.step.closure(kernel, length, context | Context.end) < 0;
  }
}

/** Arguments one `String.fromCharCode` call takes safely. */
const KEY_UNITS_LIMIT = 8_192;

function isWord(point: number): boolean {
  return point < 128 && contains(WORD_CHARACTERS, point);
}
