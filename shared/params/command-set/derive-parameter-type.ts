import { isJsonObject } from '../types/json-value';
import type { ParameterType, ScalarType } from '../types/parameter-type';

const STRING_FORMATS: ReadonlyMap<unknown, ScalarType> = new Map<unknown, ScalarType>([
  ['date', 'date'],
  ['date-time', 'datetime'],
  ['time', 'time'],
  ['duration', 'timedelta'],
]);

/**
 * The simple type of a client property schema where it maps one to one (integer -> int,
 * string with format date-time -> datetime, array of such -> array<T>, object -> dict...), so that
 * client-only tools get the same repairs as typed ones; null for anything else (type lists,
 * anyOf, no type), which is then validated by its schema alone.
 */
export function deriveParameterType(schema: unknown): ParameterType | null {
  if (!isJsonObject(schema)) return null;
  if (schema.type === 'array') {
    const items = isJsonObject(schema.items) ? deriveScalar(schema.items) : null;
    return { kind: 'array', items };
  }
  if (schema.type === 'object') return { kind: 'dict' };
  const scalar = deriveScalar(schema);
  return scalar === null ? null : { kind: 'scalar', scalar };
}

function deriveScalar(schema: Readonly<Record<string, unknown>>): ScalarType | null {
  switch (schema.type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'string':
      return STRING_FORMATS.get(schema.format) ?? 'string';
    default:
      return null;
  }
}
