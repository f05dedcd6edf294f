import { failure, type Result, success } from '../../../result';
import type { CharacterSet } from './character-set';
import type { Assertion, PatternNode } from './parse-pattern';

export const Operation = { character: 0, split: 1, jump: 2, assertion: 3, match: 4 } as const;
type Operation = (typeof Operation)[keyof typeof Operation];

/**
 * A Thompson automaton as flat instruction arrays: `character` consumes one code point of
 * `sets[pc]` and goes to pc + 1; `split` goes to both `targets`; `jump` to the first;
 * `assertion` checks `assertions[pc]` without consuming; `match` accepts.
 */
export interface PatternProgram {
  readonly operations: readonly Operation[];
  readonly targets: readonly (readonly [number, number])[];
  readonly sets: readonly (CharacterSet | null)[];
  readonly assertions: readonly (Assertion | null)[];
}

class ProgramTooLarge {}

/**
 * Compiles a parsed pattern, counted repetitions unrolled. Fails when the program would have more
 * than `maxInstructions` instructions (matching costs input length x instructions at most).
 */
export function compilePattern(
  node: PatternNode,
  maxInstructions: number,
): Result<PatternProgram, number> {
  const builder = new ProgramBuilder(maxInstructions);
  try {
    builder.emit(node);
    builder.add(Operation.match);
  } catch (error) {
    if (error instanceof ProgramTooLarge) return failure([maxInstructions]);
    throw error;
  }
  return success(builder.program);
}

class ProgramBuilder {
  readonly program = {
    operations: [] as Operation[],
    targets: [] as [number, number][],
    sets: [] as (CharacterSet | null)[],
    assertions: [] as (Assertion | null)[],
  };

  constructor(private readonly maxInstructions: number) {}

  get size(): number {
    return this.program.operations.length;
  }

  add(
    operation: Operation,
    set: CharacterSet | null = null,
    assertion: Assertion | null = null,
  ): number {
    if (this.size >= this.maxInstructions) throw new ProgramTooLarge();
    const pc = this.size;
    this.program.operations.push(operation);
    this.program.targets.push([pc + 1, pc + 1]);
    this.program.sets.push(set);
    this.program.assertions.push(assertion);
    return pc;
  }

  target(pc: number, first: number, second: number = first): void {
    this.program.targets[pc] = [first, second];
  }

  emit(node: PatternNode): void {
    switch (node.kind) {
      case 'empty':
        return;
      case 'characters':
        this.add(Operation.character, node.set);
        return;
      case 'assertion':
        this.add(Operation.assertion, null, node.assertion);
        return;
      case 'sequence':
        for (const item of node.items) this.emit(item);
        return;
      case 'alternation':
        this.alternation(node.branches);
        return;
      case 'repetition':
        this.repetition(node.item, node.min, node.max);
        return;
    }
  }

  alternation(branches: readonly PatternNode[]): void {
    const jumps: number[] = [];
    branches.forEach((branch, index) => {
      const last = index === branches.length - 1;
      const split = last ? -1 : this.add(Operation.split);
      this.emit(branch);
      if (last) return;
      jumps.push(this.add(Operation.jump));
      this.target(split, split + 1, this.size);
    });
    for (const jump of jumps) this.target(jump, this.size);
  }

  repetition(item: PatternNode, min: number, max: number): void {
    for (let count = 0; count < min; count += 1) {
      const before = this.size;
      this.emit(item);
      // An item that compiles to nothing (`(?:)`, `a{0}`) is nothing however often it repeats;
      // unrolled, `(?:(?:){99999}){99999}` would loop 10^10 times without adding an instruction.
      if (this.size === before) return;
    }
    if (max === Number.POSITIVE_INFINITY) {
      const split = this.add(Operation.split);
      this.emit(item);
      const jump = this.add(Operation.jump);
      this.target(jump, split);
      this.target(split, split + 1, this.size);
      return;
    }
    const splits: number[] = [];
    for (let count = min; count < max; count += 1) {
      splits.push(this.add(Operation.split));
      this.emit(item);
    }
    for (const split of splits) this.target(split, split + 1, this.size);
  }
}
