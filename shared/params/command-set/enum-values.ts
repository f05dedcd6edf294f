import { isJsonObject, type JsonObject } from '../types/json-value';
import type { ParameterType, ScalarType } from '../types/parameter-type';

/**
 * The enum values a client schema gives for a parameter of `type`, as strings (they are compared
 * as `String(value)`): on `items` for arrays, on the property otherwise. Null when there is none
 * or when an entry is not a scalar (ajv then checks that enum itself).
 */
export function clientEnumValues(type: ParameterType | null, schema: JsonObject): string[] | null {
  if (type === null) return stringifiedEnum(schema.enum);
  if (type.kind === 'dict') return null;
  if (type.kind === 'array')
    return isJsonObject(schema.items) ? stringifiedEnum(schema.items.enum) : null;
  return stringifiedEnum(schema.enum);
}

function stringifiedEnum(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const scalars = value.every(
    (item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean',
  );
  return scalars ? value.map(String) : null;
}

const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;

/**
 * The `enum` shown to the model: for int, float and bool parameters the values as numbers or
 * booleans when every one of them reads back to the same string, so the schema stays coherent
 * (`{"type": "integer", "enum": [1, 2]}`); strings otherwise.
 */
export function renderedEnum(scalar: ScalarType | null, values: readonly string[]): unknown[] {
  if (scalar === 'int' && values.every((value) => INTEGER_TEXT.test(value))) {
    const numbers = values.map(Number);
    if (numbers.every(Number.isSafeInteger)) return numbers;
  }
  if (scalar === 'float' && values.every((value) => String(Number(value)) === value)) {
    return values.map(Number);
  }
  if (scalar === 'bool' && values.every((value) => value === 'true' || value === 'false')) {
    return values.map((value) => value === 'true');
  }
  return [...values];
}
