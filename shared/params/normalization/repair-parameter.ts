import type { BuiltParameter } from '../command-set/build-parameter';
import type { ScalarType } from '../types/parameter-type';
import { enumMatch, enumRepair } from './enum-match';
import { isPlaceholder } from './placeholder';
import { type NormalizationPolicy, type Repair, RepairRule } from './repair';
import { type RecordRepair, repairShape } from './repair-shape';
import { isValidScalar, repairScalar } from './scalar-repairs';

export type ParameterOutcome =
  | { readonly kind: 'keep' }
  | { readonly kind: 'omit' }
  | { readonly kind: 'set'; readonly value: unknown };

const KEEP: ParameterOutcome = { kind: 'keep' };

/**
 * The repair pipeline for one parameter whose value failed validation, in order:
 * 1. placeholder or null for an optional parameter: left out (strict: only null), unless it
 *    names an enum value ignoring case;
 * 2. an object, or a list of objects (a declared JSON Schema shape, or none for a plain `dict`):
 *    the shape's conversions at every depth (repair-shape.ts);
 * 3. a scalar or a list of scalars: a JSON-encoded list parsed; the scalar rules (numeric and
 *    boolean strings, date spelling...), then the enum value that matches ignoring case, for the
 *    value or for each failing item; a single valid item for a list: wrapped in a list.
 * Every step records a Repair into `repairs`; the input value is never mutated.
 */
export function repairParameter(
  command: string,
  parameter: BuiltParameter,
  value: unknown,
  policy: NormalizationPolicy,
  repairs: Repair[],
): ParameterOutcome {
  const { name, type, required } = parameter.spec;
  const record: RecordRepair = (path, rule, before, after) => {
    repairs.push({ command, parameter: path, rule, before, after });
  };
  const placeholder =
    policy !== 'strict' && isPlaceholder(value) && enumMatch(parameter, value) === null;
  if (!required && (value === null || placeholder)) {
    record(
      name,
      value === null ? RepairRule.dropNull : RepairRule.dropPlaceholder,
      value,
      undefined,
    );
    return { kind: 'omit' };
  }
  if (type === null) return KEEP;
  if (type.kind === 'dict' || (type.kind === 'array' && type.items === null)) {
    // Strict too: an optional nested property sent as null is left out, as a parameter is.
    const repaired = repairShape(parameter.spec.schema, value, name, policy, record);
    return repaired === value ? KEEP : { kind: 'set', value: repaired };
  }
  if (policy === 'strict') return KEEP;
  let current = value;
  if (type.kind === 'array' && typeof current === 'string') {
    const parsed = parsedList(current);
    if (parsed !== undefined) {
      record(name, RepairRule.parseJsonString, current, parsed);
      current = parsed;
    }
  }
  if (type.kind === 'scalar') {
    const repair = repairScalar(type.scalar, current, policy) ?? enumRepair(parameter, current);
    if (repair !== null) {
      record(name, repair.rule, current, repair.value);
      current = repair.value;
    }
  } else if (type.items !== null) {
    current = repairArray(parameter, type.items, current, policy, record);
  }
  return current === value ? KEEP : { kind: 'set', value: current };
}

function repairArray(
  parameter: BuiltParameter,
  items: ScalarType,
  value: unknown,
  policy: NormalizationPolicy,
  record: RecordRepair,
): unknown {
  const { name } = parameter.spec;
  const { enumSet } = parameter;
  if (Array.isArray(value)) {
    let changed = false;
    const repaired = value.map((item: unknown, index) => {
      const valid = isValidScalar(items, item);
      if (valid && (enumSet === null || enumSet.has(String(item)))) return item;
      const repair =
        (valid ? null : repairScalar(items, item, policy)) ?? enumRepair(parameter, item);
      if (repair === null) return item;
      record(`${name}[${index}]`, repair.rule, item, repair.value);
      changed = true;
      return repair.value;
    });
    return changed ? repaired : value;
  }
  let single = value;
  if (!isValidScalar(items, single)) {
    const repair = repairScalar(items, single, policy);
    // Wrap only what is then a valid item, so that an issue is about the value, not the list.
    if (repair === null) return value;
    record(name, repair.rule, single, repair.value);
    single = repair.value;
  }
  record(name, RepairRule.wrapSingleValue, single, [single]);
  return [single];
}

function parsedList(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
