import { failure, type Result, success } from '../../../result';
import { compilePattern, type PatternProgram } from './compile-pattern';
import { parsePattern } from './parse-pattern';
import { runProgram } from './run-program';
import { type RunnableProgram, runnableProgram } from './runnable-program';

/** What ajv needs of a pattern engine (`code.regExp`): a `test`, and a `toString` as its key. */
export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
  /** Instructions of the automaton: matching costs at most (code points + 1) x size steps. */
  readonly size: number;
}

/** Why a pattern cannot run on the linear engine: not ECMAScript, a feature, or its size. */
export interface LinearPatternProblem {
  readonly kind: 'invalid' | 'unsupported' | 'too_large';
  readonly reason: string;
}

/**
 * Compiles a JSON Schema `pattern` (ECMAScript syntax, `u` mode) into a matcher that runs in
 * time linear in the input: a Thompson automaton, never backtracking. The reason comes back when
 * the pattern is not valid ECMAScript, uses a feature an automaton cannot run (backreferences,
 * lookaround), or unrolls to more than `maxInstructions` instructions.
 */
export function compileLinearPattern(
  pattern: string,
  maxInstructions: number,
): Result<LinearPattern, LinearPatternProblem> {
  try {
    // Only the syntax check: compiling is linear, matching is what backtracks.
    new RegExp(pattern, 'u');
  } catch (error) {
    const reason = `not a valid regular expression (${(error as Error).message})`;
    return failure([{ kind: 'invalid', reason }]);
  }
  const parsed = parsePattern(pattern);
  if (!parsed.ok) return failure(parsed.issues.map((reason) => ({ kind: 'unsupported', reason })));
  const program = compilePattern(parsed.value, maxInstructions);
  if (!program.ok) {
    const reason = `it unrolls to more than ${maxInstructions} automaton states`;
    return failure([{ kind: 'too_large', reason }]);
  }
  return success(matcher(pattern, program.value));
}

function matcher(pattern: string, program: PatternProgram): LinearPattern {
  let runnable: RunnableProgram | null = null;
  return {
    test: (text) => {
      runnable ??= runnableProgram(program);
      return runProgram(runnable, text);
    },
    toString: () => `/${pattern}/u`,
    size: program.operations.length,
  };
}
