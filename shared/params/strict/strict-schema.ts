import { failure, type Result, success } from '../../result';
import { isJsonObject, type JsonObject } from '../types/json-value';

/**
 * The keywords OpenAI's structured outputs accept in a strict schema (its documented subset);
 * `description` is kept for the model. Anything else is left out of the strict copy: the server
 * validates every argument against the full schema anyway.
 */
const KEPT = new Set([
  'type',
  'properties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
/** Formats the strict subset knows; others are dropped from the strict copy. */
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
/** Keywords the strict subset cannot express: a schema using them stays non-strict. */
const UNSUPPORTED = ['allOf', 'oneOf', 'not', 'if', 'then', 'else', 'patternProperties', '$ref'];

/**
 * `schema` in the strict subset: every object closed (`additionalProperties: false`) with every
 * property required, an optional one accepting `null` instead; or why it cannot be (a free-form
 * object or list, a keyword the subset lacks). `optional` marks a property the node may omit.
 */
export function toStrictSchema(
  schema: unknown,
  path: string,
  optional = false,
): Result<JsonObject, string> {
  if (!isJsonObject(schema)) return failure([`${path} is not a schema`]);
  const unsupported = UNSUPPORTED.find((keyword) => keyword in schema);
  if (unsupported !== undefined) return failure([`${path} uses ${unsupported}`]);
  const strict: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!KEPT.has(keyword)) continue;
    if (keyword === 'format' && !FORMATS.has(String(value))) continue;
    strict[keyword] = value;
  }
  const nested = strictChildren(schema, strict, path);
  if (!nested.ok) return nested;
  return success(optional ? nullable(nested.value) : nested.value);
}

function strictChildren(
  schema: JsonObject,
  strict: Record<string, unknown>,
  path: string,
): Result<JsonObject, string> {
  if (schema.type === 'object' || 'properties' in schema) {
    if (!isJsonObject(schema.properties) || Object.keys(schema.properties).length === 0) {
      return failure([`${path} is a free-form object`]);
    }
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const properties: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const converted = toStrictSchema(property, `${path}.${name}`, !required.has(name));
      if (!converted.ok) return converted;
      properties[name] = converted.value;
    }
    return success({
      ...strict,
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
  }
  if (schema.type === 'array') {
    if (schema.items === undefined) return failure([`${path} is a free-form list`]);
    const items = toStrictSchema(schema.items, `${path}[]`);
    if (!items.ok) return items;
    return success({ ...strict, items: items.value });
  }
  if (Array.isArray(schema.anyOf)) {
    const branches: JsonObject[] = [];
    for (const [index, branch] of schema.anyOf.entries()) {
      const converted = toStrictSchema(branch, `${path}.anyOf[${index}]`);
      if (!converted.ok) return converted;
      branches.push(converted.value);
    }
    return success({ ...strict, anyOf: branches });
  }
  if (schema.type === undefined && schema.enum === undefined && schema.const === undefined) {
    return failure([`${path} has no type`]);
  }
  return success(strict);
}

/** The same schema accepting `null`: what an omitted optional value becomes in strict mode. */
function nullable(schema: JsonObject): JsonObject {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const withNull: Record<string, unknown> = { ...schema };
  if (typeof schema.type === 'string') withNull.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type) && !schema.type.includes('null'))
    withNull.type = [...schema.type, 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null))
    withNull.enum = [...schema.enum, null];
  return withNull;
}
