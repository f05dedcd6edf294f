import { isJsonObject, type JsonObject, setOwn } from '../types/json-value';
import type { ScalarType } from '../types/parameter-type';
import { enumValueNamed } from './enum-match';
import { isPlaceholder } from './placeholder';
import { type NormalizationPolicy, RepairRule } from './repair';
import { isValidScalar, repairScalar } from './scalar-repairs';

/** Records one repair at `path` (`options[0].label`). */
export type RecordRepair = (
  path: string,
  rule: RepairRule,
  before: unknown,
  after: unknown,
) => void;

type Shape =
  | { readonly kind: 'object'; readonly schema: JsonObject }
  | { readonly kind: 'array'; readonly items: JsonObject | null }
  | { readonly kind: 'scalar'; readonly scalar: ScalarType; readonly schema: JsonObject };

const STRING_FORMATS: Readonly<Record<string, ScalarType>> = {
  date: 'date',
  'date-time': 'datetime',
  time: 'time',
  duration: 'timedelta',
};
const JSON_SCALARS: Readonly<Record<string, ScalarType>> = {
  integer: 'int',
  number: 'float',
  boolean: 'bool',
};
// Deeper than any schema may be (SCHEMA_LIMITS.depth is 12): the walk follows the schema, so this
// only guards a value against a schema that was never bounded.
const MAX_DEPTH = 32;
const BRACKETS = /[{}[\]]/;

/**
 * The universal adapter's conversions, at any depth of a declared JSON Schema shape: an object
 * property, an array item, an object inside an array inside an object. Only values of the wrong
 * JSON type (or not in their string enum) are touched, so a valid value is never changed. What
 * each policy may do (docs/parameters.md):
 * - every policy: an optional property sent as null is left out;
 * - lossless and lenient: JSON text that encodes the declared object or array is parsed; the scalar
 *   rules of scalar-repairs.ts; the one enum value equal ignoring case; a single valid item of a
 *   declared item shape wrapped in a list; an optional property sent as a placeholder ("None")
 *   where it cannot be a string, left out;
 * - lenient only: prose split into a declared shape, `"Option A: First choice"` into the shape's
 *   pair of required string properties (`{label, description}`), `"label=A,description=First"`
 *   into properties of those declared names. Splitting prose can change meaning (a colon or a
 *   comma inside the text), so lossless leaves it to the model; a shape declaring no such
 *   properties (a plain `dict`) is never given invented keys.
 * Returns `value` itself when nothing changed; never mutates it.
 */
export function repairShape(
  schema: unknown,
  value: unknown,
  path: string,
  policy: NormalizationPolicy,
  record: RecordRepair,
): unknown {
  return repairNode(schema, value, path, policy, record, 0);
}

function repairNode(
  schema: unknown,
  value: unknown,
  path: string,
  policy: NormalizationPolicy,
  record: RecordRepair,
  depth: number,
): unknown {
  const shape = shapeOf(schema);
  if (shape === null || depth > MAX_DEPTH) return value;
  switch (shape.kind) {
    case 'object':
      return repairObject(shape.schema, value, path, policy, record, depth);
    case 'array':
      return repairArray(shape.items, value, path, policy, record, depth);
    case 'scalar':
      return repairScalarNode(shape.scalar, shape.schema, value, path, policy, record);
  }
}

function repairObject(
  schema: JsonObject,
  value: unknown,
  path: string,
  policy: NormalizationPolicy,
  record: RecordRepair,
  depth: number,
): unknown {
  let current = value;
  if (typeof current === 'string' && policy !== 'strict') {
    const parsed = parsedJson(current, '{');
    if (isJsonObject(parsed)) {
      record(path, RepairRule.parseJsonString, current, parsed);
      current = parsed;
    } else if (policy === 'lenient') {
      current = splitProse(schema, current, path, record) ?? current;
    }
  }
  if (!isJsonObject(current)) return current;
  const properties = isJsonObject(schema.properties) ? schema.properties : null;
  if (properties === null) return current;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  let changed = current !== value;
  const repaired: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(current)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const at = `${path}.${key}`;
    if (property === undefined) {
      setOwn(repaired, key, item);
      continue;
    }
    if (!required.has(key) && leftOut(property, item, policy)) {
      record(at, item === null ? RepairRule.dropNull : RepairRule.dropPlaceholder, item, undefined);
      changed = true;
      continue;
    }
    const next = repairNode(property, item, at, policy, record, depth + 1);
    if (next !== item) changed = true;
    setOwn(repaired, key, next);
  }
  return changed ? repaired : value;
}

// The same rule as for a top-level parameter: null (every policy) or a placeholder (not strict)
// for an optional property, where the property cannot take it as a value.
function leftOut(property: unknown, item: unknown, policy: NormalizationPolicy): boolean {
  if (item === null) return !allowsNull(property);
  if (policy === 'strict' || !isPlaceholder(item)) return false;
  const shape = shapeOf(property);
  return shape !== null && !(shape.kind === 'scalar' && shape.scalar === 'string');
}

function repairArray(
  items: JsonObject | null,
  value: unknown,
  path: string,
  policy: NormalizationPolicy,
  record: RecordRepair,
  depth: number,
): unknown {
  let current = value;
  if (typeof current === 'string' && policy !== 'strict') {
    const parsed = parsedJson(current, '[');
    if (Array.isArray(parsed)) {
      record(path, RepairRule.parseJsonString, current, parsed);
      current = parsed;
    }
  }
  if (items === null) return current;
  if (!Array.isArray(current)) {
    return policy === 'strict' ? current : wrapped(items, current, path, policy, record, depth);
  }
  let changed = current !== value;
  const repaired = current.map((item: unknown, index) => {
    const next = repairNode(items, item, `${path}[${index}]`, policy, record, depth + 1);
    if (next !== item) changed = true;
    return next;
  });
  return changed ? repaired : value;
}

// One item where a list of such items is declared: wrapped when, repaired, it is of the item's
// JSON type (so that an issue is about the item, not the list). Its repairs count only then.
function wrapped(
  items: JsonObject,
  value: unknown,
  path: string,
  policy: NormalizationPolicy,
  record: RecordRepair,
  depth: number,
): unknown {
  const pending: Parameters<RecordRepair>[] = [];
  const item = repairNode(items, value, path, policy, (...args) => pending.push(args), depth + 1);
  if (!ofShapeType(items, item)) return value;
  for (const args of pending) record(...args);
  record(path, RepairRule.wrapSingleValue, item, [item]);
  return [item];
}

function repairScalarNode(
  scalar: ScalarType,
  schema: JsonObject,
  value: unknown,
  path: string,
  policy: NormalizationPolicy,
  record: RecordRepair,
): unknown {
  if (policy === 'strict') return value;
  let current = value;
  if (!isValidScalar(scalar, current)) {
    const repair = repairScalar(scalar, current, policy);
    if (repair === null) return value;
    record(path, repair.rule, current, repair.value);
    current = repair.value;
  }
  const match = Array.isArray(schema.enum) ? enumValueNamed(schema.enum, current) : null;
  if (match !== null) {
    record(path, RepairRule.matchEnumIgnoringCase, current, match);
    current = match;
  }
  return current;
}

/**
 * "Option A: First choice" into the shape's pair of required string properties, or
 * "label=A,description=First" into properties the shape declares; null when the text is neither.
 */
function splitProse(
  schema: JsonObject,
  text: string,
  path: string,
  record: RecordRepair,
): JsonObject | null {
  const byName = keyValuePairs(schema, text);
  if (byName !== null) {
    record(path, RepairRule.splitKeyValuePairs, text, byName);
    return byName;
  }
  const pair = declaredPair(schema);
  const split = pair === null ? null : splitOnColon(text);
  if (pair === null || split === null) return null;
  const object = { [pair[0]]: split[0], [pair[1]]: split[1] };
  record(path, RepairRule.splitLabelDescription, text, object);
  return object;
}

/** The two required properties of a shape, in declared order, when it requires exactly two strings. */
function declaredPair(schema: JsonObject): readonly [string, string] | null {
  const properties = isJsonObject(schema.properties) ? schema.properties : null;
  if (properties === null || !Array.isArray(schema.required)) return null;
  const required = new Set(schema.required);
  const names = Object.keys(properties).filter((name) => required.has(name));
  if (names.length !== 2 || required.size !== 2) return null;
  const strings = names.every((name) => {
    const property = properties[name];
    return isJsonObject(property) && property.type === 'string' && property.format === undefined;
  });
  const [first, second] = names;
  return strings && first !== undefined && second !== undefined ? [first, second] : null;
}

// Found with indexOf and trim, linear in the text (a regular expression here was cubic in
// leading blanks: 2,000 spaces and "a" took 3.45 s).
function splitOnColon(text: string): readonly [string, string] | null {
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const label = text.slice(0, colon).trim();
  const description = text.slice(colon + 1).trim();
  if (label === '' || description === '' || BRACKETS.test(label)) return null;
  return [label, description];
}

// Every piece `name=value` with a declared name, each name once; values stay strings (the walk
// then reads them as their property's type).
function keyValuePairs(schema: JsonObject, text: string): JsonObject | null {
  const properties = isJsonObject(schema.properties) ? schema.properties : null;
  if (properties === null || !text.includes('=')) return null;
  const object: Record<string, unknown> = {};
  for (const piece of text.split(',')) {
    const equals = piece.indexOf('=');
    if (equals < 0) return null;
    const name = piece.slice(0, equals).trim();
    const value = piece.slice(equals + 1).trim();
    if (!Object.hasOwn(properties, name) || Object.hasOwn(object, name) || value === '') {
      return null;
    }
    setOwn(object, name, value);
  }
  return object;
}

function shapeOf(schema: unknown): Shape | null {
  if (!isJsonObject(schema)) return null;
  const { type } = schema;
  if (type === 'object' || (type === undefined && isJsonObject(schema.properties))) {
    return { kind: 'object', schema };
  }
  if (type === 'array') {
    return { kind: 'array', items: isJsonObject(schema.items) ? schema.items : null };
  }
  if (type === 'string') {
    const scalar =
      typeof schema.format === 'string' ? (STRING_FORMATS[schema.format] ?? 'string') : 'string';
    return { kind: 'scalar', scalar, schema };
  }
  const scalar = typeof type === 'string' ? JSON_SCALARS[type] : undefined;
  return scalar === undefined ? null : { kind: 'scalar', scalar, schema };
}

function ofShapeType(schema: JsonObject, value: unknown): boolean {
  const shape = shapeOf(schema);
  if (shape === null) return false;
  if (shape.kind === 'object') return isJsonObject(value);
  if (shape.kind === 'array') return Array.isArray(value);
  return isValidScalar(shape.scalar, value);
}

function allowsNull(schema: unknown): boolean {
  if (!isJsonObject(schema)) return true;
  const { type } = schema;
  if (type === undefined) return !isJsonObject(schema.properties);
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}

function parsedJson(text: string, opening: '{' | '['): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith(opening)) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}
