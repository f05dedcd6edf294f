import type { ValidateFunction } from 'ajv';
import type { BuiltParameter } from './build-parameter';
import type { CommandSpec } from './command-spec';

/** One command with its compiled validator and what normalization needs, precomputed once. */
export interface CompiledCommand {
  readonly spec: CommandSpec;
  readonly validate: ValidateFunction;
  readonly parameters: ReadonlyMap<string, BuiltParameter>;
  /** Parameters whose enum we check as strings (ajv's schema for them has no enum). */
  readonly enumParameters: readonly BuiltParameter[];
  /** Scalar string parameters without an enum: a placeholder string is no value for them. */
  readonly stringParameters: readonly BuiltParameter[];
  /** Optional parameters with a declared default (filled in by the lenient policy). */
  readonly defaultedParameters: readonly BuiltParameter[];
}
