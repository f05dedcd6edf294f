import type { BuiltParameter } from '../command-set/build-parameter';
import { RepairRule } from './repair';
import type { ScalarRepair } from './scalar-repairs';

/**
 * The one string of `values` that `value` names ignoring case and surrounding blanks
 * ("SUBTRACT" for add/subtract), or null: when it is already one of them, is not a string, or
 * matches none or several of them (then only the model can say which it meant).
 */
export function enumValueNamed(values: Iterable<unknown>, value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const folded = fold(value);
  let found: string | null = null;
  for (const candidate of values) {
    if (candidate === value) return null;
    if (typeof candidate !== 'string' || fold(candidate) !== folded) continue;
    if (found !== null) return null;
    found = candidate;
  }
  return found;
}

/** The declared enum value of `parameter` that `value` names (`enumValueNamed`), or null. */
export function enumMatch(parameter: BuiltParameter, value: unknown): string | null {
  const { enumSet } = parameter;
  // A declared value, the common case, is answered by the set without a walk over it.
  if (enumSet === null || (typeof value === 'string' && enumSet.has(value))) return null;
  return enumValueNamed(enumSet, value);
}

/** The enum repair as a scalar repair step, for a string parameter or string array items. */
export function enumRepair(parameter: BuiltParameter, value: unknown): ScalarRepair | null {
  const match = enumMatch(parameter, value);
  return match === null ? null : { value: match, rule: RepairRule.matchEnumIgnoringCase };
}

function fold(text: string): string {
  return text.trim().toLowerCase();
}
