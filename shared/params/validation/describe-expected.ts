import type { ParameterSpec } from '../command-set/command-spec';
import { type ParameterType, type ScalarType, scalarOf } from '../types/parameter-type';

const SCALAR_EXPECTATIONS: Readonly<Record<ScalarType, string>> = {
  string: 'a string',
  int: 'an integer',
  float: 'a number',
  bool: 'a JSON boolean (true or false)',
  date: 'an ISO-8601 calendar date YYYY-MM-DD (e.g. 2026-01-18)',
  datetime: 'an absolute ISO-8601 date-time with a time zone (e.g. 2026-01-18T05:00:00Z)',
  time: 'a clock time HH:MM or HH:MM:SS, optionally with a zone offset (e.g. 15:00)',
  timedelta: 'an ISO-8601 duration (e.g. PT90M or P1DT2H)',
};

const FORMAT_SCALARS: Readonly<Record<string, ScalarType>> = {
  date: 'date',
  'date-time': 'datetime',
  time: 'time',
  duration: 'timedelta',
};

const JSON_TYPE_EXPECTATIONS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a JSON boolean (true or false)',
  array: 'a JSON array',
  object: 'a JSON object',
  null: 'null',
};

/** What a valid value of one scalar looks like, in words a model can act on. */
export function describeScalar(scalar: ScalarType): string {
  return SCALAR_EXPECTATIONS[scalar];
}

/** What a valid value of a parameter type looks like. */
function describeType(type: ParameterType): string {
  switch (type.kind) {
    case 'scalar':
      return describeScalar(type.scalar);
    case 'array':
      return type.items === null
        ? 'a JSON array'
        : `a JSON array whose every item is ${describeScalar(type.items)}`;
    case 'dict':
      return 'a JSON object';
  }
}

/** What a parameter needs: its valid values when it has an enum, else its type. */
export function describeParameter(parameter: ParameterSpec | undefined): string {
  if (parameter === undefined) return 'a value';
  if (parameter.enumValues !== null) {
    const list = `one of ${describeValues(parameter.enumValues, parameter.type)}`;
    return parameter.type?.kind === 'array' ? `a JSON array whose every item is ${list}` : list;
  }
  if (parameter.type !== null) return describeType(parameter.type);
  return describeJsonType(parameter.schema.type);
}

/** A JSON Schema `type` (a name or a list of names) in words. */
export function describeJsonType(type: unknown): string {
  const names: readonly unknown[] = Array.isArray(type) ? type : [type];
  const words = names.map((name) =>
    typeof name === 'string' ? JSON_TYPE_EXPECTATIONS[name] : undefined,
  );
  if (words.length === 0 || words.some((word) => word === undefined))
    return 'a value matching the schema';
  return words.join(' or ');
}

/** A JSON Schema `format` in words. */
export function describeFormat(format: unknown): string {
  const scalar = typeof format === 'string' ? FORMAT_SCALARS[format] : undefined;
  if (scalar !== undefined) return describeScalar(scalar);
  return `a string in the ${JSON.stringify(format)} format`;
}

// Enum values of these types are numbers or booleans to the model (renderedEnum): written unquoted.
const UNQUOTED: ReadonlySet<ScalarType | null> = new Set<ScalarType | null>([
  'int',
  'float',
  'bool',
]);

/**
 * `"add", "subtract" or "multiply"`; for an int, float or bool parameter the values as the model
 * must send them, `1, 2 or 3` (never `"1", "2" or "3"`, which reads as if the string were wanted).
 */
export function describeValues(
  values: readonly string[],
  type: ParameterType | null = null,
): string {
  const unquoted = UNQUOTED.has(scalarOf(type));
  const quoted = values.map((value) => (unquoted ? value : JSON.stringify(value)));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

const RECEIVED_LIMIT = 120;

/** The received value as it appears in messages: JSON, cut short when long. */
export function describeReceived(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value) ?? String(value);
  return json.length > RECEIVED_LIMIT ? `${json.slice(0, RECEIVED_LIMIT)}...` : json;
}
