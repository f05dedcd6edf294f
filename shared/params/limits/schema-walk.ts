import { isJsonObject, type JsonObject } from '../types/json-value';

/** One subschema (an object in a schema position) and where it is, as JSON Pointer segments. */
export interface SchemaNode {
  readonly schema: JsonObject;
  readonly path: readonly string[];
}

// Where JSON Schema (draft-07, and the 2019/2020 names ajv may know) puts subschemas.
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependencies',
  'dependentSchemas',
]);
const SCHEMA_LISTS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_SINGLES: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

/**
 * Every subschema of `root` (root first), found by keyword, without recursion. Values of other
 * keywords (`enum`, `const`, `default`, unknown ones) are data, never schemas: a `$ref` hidden
 * there is not one ajv follows either.
 */
export function schemaNodes(root: unknown): SchemaNode[] {
  if (!isJsonObject(root)) return [];
  const found: SchemaNode[] = [];
  const pending: SchemaNode[] = [{ schema: root, path: [] }];
  while (pending.length > 0) {
    const node = pending.pop() as SchemaNode;
    found.push(node);
    const children: SchemaNode[] = [];
    const add = (value: unknown, path: readonly string[]) => {
      if (isJsonObject(value)) children.push({ schema: value, path });
    };
    for (const [keyword, value] of Object.entries(node.schema)) {
      const here = [...node.path, keyword];
      if (SCHEMA_MAPS.has(keyword) && isJsonObject(value)) {
        for (const [name, member] of Object.entries(value)) add(member, [...here, name]);
      } else if ((SCHEMA_LISTS.has(keyword) || keyword === 'items') && Array.isArray(value)) {
        for (const [index, member] of value.entries()) add(member, [...here, String(index)]);
      } else if (SCHEMA_SINGLES.has(keyword)) {
        add(value, here);
      }
    }
    pending.push(...children.reverse());
  }
  return found;
}

/** `#/properties/a~1b`: a path as the JSON Pointer fragment `$ref` uses. */
export function pointerOf(path: readonly string[]): string {
  return `#${path.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}

/** The path a local `$ref` names (`#`, `#/definitions/x`), or null for any other reference. */
export function refPath(ref: string): string[] | null {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return null;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'));
  } catch {
    return null;
  }
}
