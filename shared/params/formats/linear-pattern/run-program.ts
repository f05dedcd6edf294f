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
 * What one run may remember: states, and kernel instructions across them. Past either, steps are
 * computed and not kept, so a run's memory is bounded whatever the pattern and the text.
 */
export interface MemoLimits {
  readonly states: number;
  readonly kernelInstructions: number;
}

export const MEMO_LIMITS: MemoLimits = { states: 256, kernelInstructions: 1 << 15 };

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
  }
}

class MemoizedRun {
  readonly step: AutomatonStep;
  readonly #known = new Map<string, RunState>();
  #kernelInstructions = 0;
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
      const next = known ?? this.#next(state, point);
      if (next === MATCHED) return true;
      state = next;
      position += point > 0xffff ? 2 : 1;
    }
    return this.step.closure(state.kernel, state.kernel.length, state.context | Context.end) < 0;
  }

  /** The state after `state` consumes `point`, computed, and kept in `state` when both are kept. */
  #next(state: RunState, point: number): RunState {
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
    if (point < 128 && state.ascii !== null) state.ascii[point] = next;
    else state.other?.set(point, next);
    return next;
  }

  /** Only a program with \b or \B tells states apart by their last character. */
  #contextAfter(word: boolean): number {
    return word && this.program.readsWords ? Context.wordBefore : 0;
  }

  /** The state of `kernel` after a character of `context`: the one met before, or a new one. */
  #state(kernel: Int32Array, context: number): RunState {
    const key = `${context}:${kernel.join(',')}`;
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

function isWord(point: number): boolean {
  return point < 128 && contains(WORD_CHARACTERS, point);
}
