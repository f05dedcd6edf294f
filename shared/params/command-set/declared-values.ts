import { isValidScalar, repairScalar } from '../normalization/scalar-repairs';
import { isJsonObject } from '../types/json-value';
import type { ParameterType, ScalarType } from '../types/parameter-type';

/** A declared value read as its parameter's type, or the sentence saying why it cannot be. */
export type DeclaredValue =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: string };

// What Python's str() writes for an int ("1") and a float ("1.0", "2.5", "1e-05"); "1.0" is read
// as an int too, as the lossless repair reads it. "inf" and "nan" are no JSON numbers.
const INTEGER_TEXT = /^[+-]?\d+(?:\.0+)?$/;
const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const SCALAR_NAMES: Readonly<Record<ScalarType, string>> = {
  string: 'a string',
  int: 'an integer (Python writes 1 as "1")',
  float: 'a number (Python writes 1.5 as "1.5")',
  bool: 'a boolean (Python writes "True" or "False")',
  date: 'a date YYYY-MM-DD',
  datetime: 'an ISO-8601 date-time with a time zone',
  time: 'a time HH:MM or HH:MM:SS',
  timedelta: 'an ISO-8601 duration such as PT90M',
};

/**
 * One enum value or default of a typed parameter read as its type, the way the node's SDK writes
 * them (api.md: enum values are strings, `str(value)`): `"1"` -> 1 for an int, `"1.0"` -> 1 for a
 * float, `"True"` -> true for a bool; a date, time or duration in its canonical spelling (Python's
 * `2026-01-18 05:00:00+00:00` -> `2026-01-18T05:00:00+00:00`). A value already of the type is kept.
 * Anything else cannot be satisfied by any argument: the registration is refused naming it.
 */
export function declaredScalar(scalar: ScalarType, value: unknown): DeclaredValue {
  const converted = convertedScalar(scalar, value);
  return converted === undefined
    ? { ok: false, problem: `${JSON.stringify(value)} is not ${SCALAR_NAMES[scalar]}` }
    : { ok: true, value: converted };
}

/** A default of any parameter type: a scalar as above; a list or object, or its JSON text. */
export function declaredDefault(type: ParameterType, value: unknown): DeclaredValue {
  if (type.kind === 'scalar') return declaredScalar(type.scalar, value);
  const container = typeof value === 'string' ? parsedJson(value) : value;
  if (type.kind === 'dict') {
    return isJsonObject(container)
      ? { ok: true, value: container }
      : { ok: false, problem: `${JSON.stringify(value)} is not a JSON object` };
  }
  if (!Array.isArray(container)) {
    return { ok: false, problem: `${JSON.stringify(value)} is not a JSON array` };
  }
  const { items } = type;
  if (items === null) return { ok: true, value: container };
  const converted: unknown[] = [];
  for (const [index, item] of container.entries()) {
    const read = declaredScalar(items, item);
    if (!read.ok) return { ok: false, problem: `item ${index}: ${read.problem}` };
    converted.push(read.value);
  }
  return { ok: true, value: converted };
}

function convertedScalar(scalar: ScalarType, value: unknown): unknown {
  if (scalar === 'string') {
    // A number or a boolean for a string parameter is sent as its text, as str() would.
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return typeof value === 'string' ? value : undefined;
  }
  if (isValidScalar(scalar, value)) return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  switch (scalar) {
    case 'int':
      return INTEGER_TEXT.test(text) && Number.isSafeInteger(Number(text))
        ? Number(text)
        : undefined;
    case 'float':
      return NUMBER_TEXT.test(text) && Number.isFinite(Number(text)) ? Number(text) : undefined;
    case 'bool': {
      const word = text.toLowerCase();
      return word === 'true' ? true : word === 'false' ? false : undefined;
    }
    default:
      return repairScalar(scalar, value, 'lossless')?.value;
  }
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
