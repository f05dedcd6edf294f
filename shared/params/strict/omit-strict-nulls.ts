import { isJsonObject, setOwn } from '../types/json-value';

/**
 * Arguments of a strict-mode call as the node's schema means them: strict mode makes the model
 * send `null` for every optional property it would have left out, so those nulls are taken back
 * out (at every depth) before normalization and validation. A null for a required property, or
 * one the original schema allows, stays for the validator to judge.
 */
export function omitStrictNulls(value: unknown, schema: unknown): unknown {
  if (!isJsonObject(schema)) return value;
  if (Array.isArray(value)) return value.map((item) => omitStrictNulls(item, schema.items));
  if (!isJsonObject(value) || !isJsonObject(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const kept: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const property = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    if (item === null && !required.has(name) && !acceptsNull(property)) continue;
    setOwn(kept, name, omitStrictNulls(item, property));
  }
  return kept;
}

function acceptsNull(schema: unknown): boolean {
  if (!isJsonObject(schema)) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('null') || (Array.isArray(schema.enum) && schema.enum.includes(null));
}
