import type { BuiltParameter } from '../command-set/build-parameter';
import { isJsonObject } from '../types/json-value';
import type { ScalarType } from '../types/parameter-type';
import { isPlaceholder } from './placeholder';
import { type NormalizationPolicy, type Repair, RepairRule } from './repair';
import { isValidScalar, repairScalar } from './scalar-repairs';

export type ParameterOutcome =
  | { readonly kind: 'keep' }
  | { readonly kind: 'omit' }
  | { readonly kind: 'set'; readonly value: unknown };

type RecordRepair = (parameter: string, rule: RepairRule, before: unknown, after: unknown) => void;

const KEEP: ParameterOutcome = { kind: 'keep' };
const LABEL_DESCRIPTION = /^\s*([^:{}[\]]+?)\s*:\s*(\S.*?)\s*$/s;

/**
 * The repair pipeline for one parameter whose value failed validation, in order:
 * 1. placeholder or null for an optional parameter: left out (strict: only null);
 * 2. a JSON-encoded list or object in a string, for an array or object parameter: parsed;
 * 3. the scalar rules (numeric and boolean strings, date spelling...), for the value or for each
 *    failing array item; a single valid item for an array parameter: wrapped in a list;
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
  if (!required && (value === null || (policy !== 'strict' && isPlaceholder(value)))) {
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
    const repair = repairScalar(type.scalar, current, policy);
    if (repair !== null) {
      record(name, repair.rule, current, repair.value);
      current = repair.value;
    }
  } else if (type.kind === 'array' && type.items !== null) {
    current = repairArray(name, type.items, current, policy, record);
  } else if (type.kind === 'dict' && policy === 'lenient' && typeof current === 'string') {
    const match = LABEL_DESCRIPTION.exec(current);
    if (match !== null) {
      const split = { label: match[1], description: match[2] };
      record(name, RepairRule.splitLabelDescription, current, split);
      current = split;
    }
  }
  return current === value ? KEEP : { kind: 'set', value: current };
}

function repairArray(
  name: string,
  items: ScalarType,
  value: unknown,
  policy: NormalizationPolicy,
  record: RecordRepair,
): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const repaired = value.map((item: unknown, index) => {
      if (isValidScalar(items, item)) return item;
      const repair = repairScalar(items, item, policy);
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
