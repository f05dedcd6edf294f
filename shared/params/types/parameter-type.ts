import { failure, type Result, success } from '../../result';

export type ScalarType =
  | 'string'
  | 'int'
  | 'float'
  | 'bool'
  | 'date'
  | 'datetime'
  | 'time'
  | 'timedelta';

export type ParameterType =
  | { readonly kind: 'scalar'; readonly scalar: ScalarType }
  | { readonly kind: 'array'; readonly items: ScalarType | null }
  | { readonly kind: 'dict' };

/** The scalar types whose values are dates, times or durations (strings with an ISO-8601 format). */
const TEMPORAL_SCALARS: ReadonlySet<ScalarType> = new Set<ScalarType>([
  'date',
  'datetime',
  'time',
  'timedelta',
]);

const SCALAR_NAMES: ReadonlyMap<string, ScalarType> = new Map<string, ScalarType>([
  ['string', 'string'],
  ['str', 'string'],
  ['int', 'int'],
  ['integer', 'int'],
  ['float', 'float'],
  ['bool', 'bool'],
  ['boolean', 'bool'],
  ['date', 'date'],
  ['datetime', 'datetime'],
  ['time', 'time'],
  ['timedelta', 'timedelta'],
]);

const CONTAINER_NAMES: ReadonlySet<string> = new Set(['array', 'list']);

// `array<T>` / `list<T>`, `array[T]` / `list[T]`, `T[]`: the inner name is checked separately so
// that nested or unknown item types get a message of their own.
const ANGLE_SPELLING = /^(?:array|list)\s*<(.*)>$/;
const BRACKET_SPELLING = /^(?:array|list)\s*\[(.*)\]$/;
const SUFFIX_SPELLING = /^(.*?)\s*\[\s*\]$/;

const KNOWN_NAMES =
  'string, str, int, integer, float, bool, boolean, date, datetime, time, timedelta';

/**
 * Parses a parameter type string of the wire contract (case-insensitive, trimmed) into a typed
 * descriptor. Nested arrays, arrays of containers and unknown names are rejected with a message
 * that quotes the bad string.
 */
export function parseParameterType(text: string): Result<ParameterType, string> {
  const normalized = text.trim().toLowerCase();
  if (normalized === '') return failure([`the parameter type is empty: ${JSON.stringify(text)}`]);
  const scalar = SCALAR_NAMES.get(normalized);
  if (scalar !== undefined) return success({ kind: 'scalar', scalar });
  if (CONTAINER_NAMES.has(normalized)) return success({ kind: 'array', items: null });
  if (normalized === 'dict') return success({ kind: 'dict' });
  const inner =
    ANGLE_SPELLING.exec(normalized)?.[1] ??
    SUFFIX_SPELLING.exec(normalized)?.[1] ??
    BRACKET_SPELLING.exec(normalized)?.[1];
  if (inner === undefined) {
    return failure([
      `unknown parameter type ${JSON.stringify(text)} (known: ${KNOWN_NAMES}, array, list, dict, array<T>, array[T], T[])`,
    ]);
  }
  return parseItemType(inner.trim(), text);
}

function parseItemType(inner: string, text: string): Result<ParameterType, string> {
  const items = SCALAR_NAMES.get(inner);
  if (items !== undefined) return success({ kind: 'array', items });
  const innerIsContainer =
    CONTAINER_NAMES.has(inner) ||
    inner === 'dict' ||
    ANGLE_SPELLING.test(inner) ||
    BRACKET_SPELLING.test(inner) ||
    SUFFIX_SPELLING.test(inner);
  if (innerIsContainer) {
    return failure([
      `arrays hold scalars only, nested containers are not supported: ${JSON.stringify(text)}`,
    ]);
  }
  return failure([
    `unknown array item type ${JSON.stringify(inner)} in ${JSON.stringify(text)} (known: ${KNOWN_NAMES})`,
  ]);
}

/** The canonical spelling of a type, as used in messages and prompts: `int`, `array<datetime>`, `dict`. */
export function formatParameterType(type: ParameterType): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar;
    case 'array':
      return type.items === null ? 'array' : `array<${type.items}>`;
    case 'dict':
      return 'dict';
  }
}

/** The scalar of a scalar type or of a typed array's items; null for dict and untyped arrays. */
export function scalarOf(type: ParameterType | null | undefined): ScalarType | null {
  if (type === null || type === undefined || type.kind === 'dict') return null;
  return type.kind === 'scalar' ? type.scalar : type.items;
}

/** True for a date, datetime, time or timedelta parameter, alone or as array items. */
export function isTemporalType(type: ParameterType | null | undefined): boolean {
  const scalar = scalarOf(type);
  return scalar !== null && TEMPORAL_SCALARS.has(scalar);
}
