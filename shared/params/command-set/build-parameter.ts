import { isJsonObject, type JsonObject, omitKeys } from '../types/json-value';
import type { ParameterType, ScalarType } from '../types/parameter-type';
import { scalarSchema, typeSchema } from '../types/type-schema';
import type { ParameterSpec } from './command-spec';
import { deriveParameterType } from './derive-parameter-type';
import { clientEnumValues, renderedEnum } from './enum-values';
import type { TypedParameter } from './read-available-command';

/** A parameter ready to compile: its public spec and the schema ajv checks. */
export interface BuiltParameter {
  readonly spec: ParameterSpec;
  /** The rendered schema minus the enum when `enumSet` checks it (as strings, not by ajv). */
  readonly validationSchema: unknown;
  readonly enumSet: ReadonlySet<string> | null;
}

// Keywords the typed parameter decides; every other keyword of the client property is an extra
// constraint that must hold as well, so it is copied into the schema.
const DECIDED_KEYWORDS = ['type', 'items', 'description', 'enum', 'default', '_refinable'];
const WITH_FORMAT: ReadonlySet<string> = new Set([...DECIDED_KEYWORDS, 'format']);
const WITHOUT_FORMAT: ReadonlySet<string> = new Set(DECIDED_KEYWORDS);
const ITEM_DECIDED_WITH_FORMAT: ReadonlySet<string> = new Set(['type', 'enum', 'format']);
const ITEM_DECIDED: ReadonlySet<string> = new Set(['type', 'enum']);

/**
 * A typed parameter rendered per the mapping table of api.md, merged with the client's property
 * schema for it when there is one: the typed side gives type, format, description, enum and
 * default; the client's other keywords (minimum, pattern, minItems...) are kept as constraints.
 */
export function typedParameter(
  typed: TypedParameter,
  client: JsonObject | null,
  required: boolean,
): BuiltParameter {
  const property = client ?? {};
  const { type } = typed;
  const enumValues = typed.enumValues ?? clientEnumValues(type, property);
  const { items: _typedItems, ...base } = typeSchema(type);
  const items = mergedItems(type, property, enumValues);
  const description =
    typed.description ?? (typeof property.description === 'string' ? property.description : null);
  const defaultValue = typed.defaultValue !== undefined ? typed.defaultValue : property.default;
  const refinable = typed.refinable || property._refinable === true;
  const schema: Record<string, unknown> = {
    ...base,
    ...(items === undefined ? {} : { items }),
    ...(description === null ? {} : { description }),
    ...(enumValues === null || type.kind !== 'scalar'
      ? {}
      : { enum: renderedEnum(type.scalar, enumValues) }),
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    ...(refinable ? { _refinable: true } : {}),
    ...omitKeys(
      property,
      type.kind === 'scalar' && keepsClientFormat(type.scalar) ? WITHOUT_FORMAT : WITH_FORMAT,
    ),
  };
  const spec: ParameterSpec = {
    name: typed.name,
    type,
    required,
    description,
    enumValues,
    defaultValue,
    refinable,
    schema,
  };
  const enumSet = enumValues === null ? null : new Set(enumValues);
  return { spec, validationSchema: withoutEnum(schema, type, enumSet), enumSet };
}

/**
 * A property only the client schema names. Its type is derived where it maps one to one, so it
 * gets the same repairs and string-compared enum as a typed one; otherwise ajv alone checks it.
 */
export function clientParameter(
  name: string,
  property: unknown,
  required: boolean,
): BuiltParameter {
  const type = deriveParameterType(property);
  const schema: JsonObject = isJsonObject(property)
    ? property
    : property === false
      ? { not: {} }
      : {};
  const enumValues = clientEnumValues(type, schema);
  const enumSet = type === null || enumValues === null ? null : new Set(enumValues);
  const spec: ParameterSpec = {
    name,
    type,
    required,
    description: typeof schema.description === 'string' ? schema.description : null,
    enumValues,
    defaultValue: schema.default,
    refinable: schema._refinable === true,
    schema,
  };
  const validationSchema = isJsonObject(property) ? withoutEnum(schema, type, enumSet) : property;
  return { spec, validationSchema, enumSet };
}

function mergedItems(
  type: ParameterType,
  property: JsonObject,
  enumValues: readonly string[] | null,
): Record<string, unknown> | undefined {
  if (type.kind !== 'array') return undefined;
  const clientItems = isJsonObject(property.items) ? property.items : null;
  const enumPart = enumValues === null ? {} : { enum: renderedEnum(type.items, enumValues) };
  if (type.items === null) {
    if (clientItems === null) return enumValues === null ? undefined : enumPart;
    return { ...omitKeys(clientItems, new Set(['enum'])), ...enumPart };
  }
  const decided = keepsClientFormat(type.items) ? ITEM_DECIDED : ITEM_DECIDED_WITH_FORMAT;
  const extras = clientItems === null ? {} : omitKeys(clientItems, decided);
  return { ...scalarSchema(type.items), ...enumPart, ...extras };
}

// A client `format` is an extra constraint only where our type has no format of its own (a plain
// string, e.g. `format: "email"`); for the other scalars our type and format decide.
function keepsClientFormat(scalar: ScalarType): boolean {
  return scalar === 'string';
}

function withoutEnum(
  schema: JsonObject,
  type: ParameterType | null,
  enumSet: ReadonlySet<string> | null,
): JsonObject {
  if (enumSet === null || type === null) return schema;
  if (type.kind !== 'array') return omitKeys(schema, new Set(['enum']));
  const items = isJsonObject(schema.items)
    ? omitKeys(schema.items, new Set(['enum']))
    : schema.items;
  return { ...schema, items };
}
