import type { BuiltParameter } from '../command-set/build-parameter';
import { isJsonObject } from '../types/json-value';
import type { ScalarType } from '../types/parameter-type';
import { enumMatch, enumRepair } from './enum-match';
import { isPlaceholder } from './placeholder';
import { type NormalizationPolicy, type Repair, RepairRule } from './repair';
import { isValidScalar, repairScalar } from './scalar-repairs';

export type ParameterOutcome =
  | { readonly kind: 'keep' }
  | { readonly kind: 'omit' }
  | { readonly kind: 'set'; readonly value: unknown };

type RecordRepair = (parameter: string, rule: RepairRule, before: unknown, after: unknown) => void;

const KEEP: ParameterOutcome = { kind: 'keep' };
const BRACKETS = /[{}[\]]/;

/**
 * The repair pipeline for one parameter whose value failed validation, in order:
 * 1. placeholder or null for an optional parameter: left out (strict: only null), unless it
 *    names an enum value ignoring case;
 * 2. a JSON-encoded list or object in a string, for an array or object parameter: parsed;
 * 3. the scalar rules (numeric and boolean strings, date spelling...), then the enum value that
 *    matches ignoring case, for the value or for each failing array item; a single valid item for
 *    an array parameter: wrapped in a list;
 * 4. lenient only: "label: description" for an object parameter.
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
  if (policy === 'strict' || type === null) return KEEP;
  let current = value;
  if (type.kind !== 'scalar' && typeof current === 'string') {
    const parsed = parsedContainer(current, type.kind === 'array');
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
  } else if (type.kind === 'array' && type.items !== null) {
    current = repairArray(parameter, type.items, current, policy, record);
  } else if (type.kind === 'dict' && policy === 'lenient' && typeof current === 'string') {
    const split = labelAndDescription(current);
    if (split !== null) {
      record(name, RepairRule.splitLabelDescription, current, split);
      current = split;
    }
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

// "Kitchen: the room with the oven". Found with indexOf and trim, linear in the text: the regular
// expression it replaces was cubic in leading blanks (2,000 spaces and "a": 3.45 s).
function labelAndDescription(text: string): { label: string; description: string } | null {
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const label = text.slice(0, colon).trim();
  const description = text.slice(colon + 1).trim();
  if (label === '' || description === '' || BRACKETS.test(label)) return null;
  return { label, description };
}

function parsedContainer(text: string, array: boolean): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith(array ? '[' : '{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return (array ? Array.isArray(parsed) : isJsonObject(parsed)) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
