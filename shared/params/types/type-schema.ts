import type { ParameterType, ScalarType } from './parameter-type';

/** The JSON Schema base types a parameter type can map to. */
export type JsonBaseType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

interface ScalarSchema {
  readonly type: JsonBaseType;
  readonly format?: string;
}

const SCALAR_SCHEMAS: Readonly<Record<ScalarType, ScalarSchema>> = {
  string: { type: 'string' },
  int: { type: 'integer' },
  float: { type: 'number' },
  bool: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
  time: { type: 'string', format: 'time' },
  timedelta: { type: 'string', format: 'duration' },
};

/** The JSON Schema of one scalar, as the mapping table of api.md gives it. */
export function scalarSchema(scalar: ScalarType): Record<string, unknown> {
  const { type, format } = SCALAR_SCHEMAS[scalar];
  return format === undefined ? { type } : { type, format };
}

/** The format a scalar carries (`date-time` for `datetime`...), or undefined for plain types. */
export function scalarFormat(scalar: ScalarType): string | undefined {
  return SCALAR_SCHEMAS[scalar].format;
}

/** The JSON Schema of a parameter type (without description, enum or default). */
export function typeSchema(type: ParameterType): Record<string, unknown> {
  switch (type.kind) {
    case 'scalar':
      return scalarSchema(type.scalar);
    case 'array':
      return type.items === null
        ? { type: 'array' }
        : { type: 'array', items: scalarSchema(type.items) };
    case 'dict':
      return { type: 'object' };
  }
}

/** The JSON Schema `type` a parameter type maps to. */
export function jsonBaseType(type: ParameterType): JsonBaseType {
  switch (type.kind) {
    case 'scalar':
      return SCALAR_SCHEMAS[type.scalar].type;
    case 'array':
      return 'array';
    case 'dict':
      return 'object';
  }
}
