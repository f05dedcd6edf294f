import { isJsonObject, type JsonObject } from '../types/json-value';
import { ARGUMENT_LIMITS } from './limits';
import { type OwnCost, ownCost } from './own-cost';
import { pointerOf, refPath } from './schema-walk';

/** The bound of one schema: steps per argument byte, and what multiplied most. */
export interface CostBound {
  /** Upper bound of validation steps per byte of arguments; Infinity when it cannot be bounded. */
  readonly stepsPerByte: number;
  /** Where the largest share of it comes from (a JSON Pointer) and why. */
  readonly at: string;
  readonly detail: string;
}

type Schema = JsonObject | boolean;

/**
 * An upper bound of the work of validating one call against `root` as ajv (allErrors) evaluates
 * it, per byte of the arguments: every byte belongs to one instance node, which is checked by
 * every subschema that applies to it. So the work is at most bytes x the largest sum, over the
 * subschemas that can apply to one node, of their own cost per byte: keywords, enum values,
 * pattern instructions (the linear engine steps each state once per character), formats,
 * `uniqueItems` (each item compared with every other), patternProperties keys (every pattern runs
 * on every name) and property lists; `uniqueItems`, `enum` and `const` also on every byte inside
 * the value, on top of what its children cost. Subschemas that apply to the same
 * node (allOf, anyOf, oneOf, not, if/then/else, dependentSchemas, $ref) add up; of the
 * subschemas of a child node, every patternProperties value, additionalProperties,
 * propertyNames, contains and the like add up, and of `properties` the costliest one counts.
 * `true` and `false` cost one step. Depth stops at the argument limit. `$ref` resolves against
 * the root, as ajv does once `$id` is refused (schema-limit-problems.ts); a cycle is Infinity.
 */
export function costBound(root: unknown): CostBound {
  const memo = new Map<string, number>();
  const owned = new Map<string, OwnCost>();
  const visiting = new Set<string>();
  const worst = { stepsPerByte: 0, at: '#', detail: 'no subschema' };
  // Where subschemas applied to one value add up the most: what multiplied, for the message.
  const added = { stepsPerByte: 0, at: '#', branches: 0 };
  const maxDepth = ARGUMENT_LIMITS.depth + 1;

  const bound = (schema: unknown, path: readonly string[], depth: number): number => {
    if (depth > maxDepth) return 0;
    if (typeof schema === 'boolean') return 1;
    if (!isJsonObject(schema)) return 0;
    const key = `${depth}\u0000${pointerOf(path)}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    if (visiting.has(key)) return Number.POSITIVE_INFINITY;
    visiting.add(key);
    // Once per subschema, not per depth: its patterns are compiled to count their instructions.
    const pointer = pointerOf(path);
    const own: OwnCost = owned.get(pointer) ?? ownCost(schema);
    owned.set(pointer, own);
    const child = Math.max(objectChildren(schema, path, depth), arrayChildren(schema, path, depth));
    const branches = sameInstance(schema, path);
    const ref = refTarget(root, schema.$ref);
    if (ref !== null) branches.push([ref.schema as Schema, ref.path]);
    let sum = 0;
    for (const [branch, at] of branches) sum += bound(branch, at, depth);
    // A name is the object's own bytes, checked by its patternProperties keys and propertyNames.
    const names = bound(schema.propertyNames, [...path, 'propertyNames'], depth + 1);
    const total = Math.max(own.steps + names, child + own.deep) + sum;
    if (sum > added.stepsPerByte) {
      Object.assign(added, { stepsPerByte: sum, at: pointerOf(path), branches: branches.length });
    }
    visiting.delete(key);
    memo.set(key, total);
    if (own.steps > worst.stepsPerByte) {
      Object.assign(worst, { stepsPerByte: own.steps, at: pointerOf(path), detail: own.detail });
    }
    return total;
  };

  const objectChildren = (schema: JsonObject, path: readonly string[], depth: number): number => {
    let total = 0;
    if (isJsonObject(schema.properties)) {
      let costliest = 0;
      for (const [name, member] of Object.entries(schema.properties)) {
        costliest = Math.max(costliest, bound(member, [...path, 'properties', name], depth + 1));
      }
      total += costliest;
    }
    if (isJsonObject(schema.patternProperties)) {
      for (const [pattern, member] of Object.entries(schema.patternProperties)) {
        total += bound(member, [...path, 'patternProperties', pattern], depth + 1);
      }
    }
    for (const keyword of ['additionalProperties', 'unevaluatedProperties', 'propertyNames']) {
      total += bound(schema[keyword], [...path, keyword], depth + 1);
    }
    return total;
  };

  const arrayChildren = (schema: JsonObject, path: readonly string[], depth: number): number => {
    let costliest = 0;
    for (const keyword of ['items', 'prefixItems']) {
      const value = schema[keyword];
      const members = Array.isArray(value) ? value : [value];
      for (const [index, member] of members.entries()) {
        const at = Array.isArray(value) ? [...path, keyword, String(index)] : [...path, keyword];
        costliest = Math.max(costliest, bound(member, at, depth + 1));
      }
    }
    let total = costliest;
    for (const keyword of ['additionalItems', 'contains', 'unevaluatedItems']) {
      total += bound(schema[keyword], [...path, keyword], depth + 1);
    }
    return total;
  };

  const stepsPerByte = bound(root, [], 0);
  if (!Number.isFinite(stepsPerByte)) {
    return {
      stepsPerByte,
      at: '#',
      detail: 'a $ref leads back to a schema applied to the same value',
    };
  }
  if (added.stepsPerByte <= worst.stepsPerByte) {
    return { stepsPerByte, at: worst.at, detail: worst.detail };
  }
  const detail =
    `${added.branches} subschemas applied to the same value here (allOf, anyOf, oneOf, not, ` +
    `if/then/else, dependentSchemas, $ref) add up to ${added.stepsPerByte} steps a byte; the ` +
    `costliest single subschema (${worst.stepsPerByte}, at ${worst.at}): ${worst.detail}`;
  return { stepsPerByte, at: added.at, detail };
}

/** Subschemas applied to the same value as `schema`, with where they are. */
function sameInstance(schema: JsonObject, path: readonly string[]): [Schema, string[]][] {
  const found: [Schema, string[]][] = [];
  const add = (value: unknown, at: string[]) => {
    if (typeof value === 'boolean' || isJsonObject(value)) found.push([value, at]);
  };
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[keyword];
    if (Array.isArray(list)) {
      for (const [index, member] of list.entries()) add(member, [...path, keyword, String(index)]);
    }
  }
  for (const keyword of ['not', 'if', 'then', 'else']) add(schema[keyword], [...path, keyword]);
  for (const keyword of ['dependentSchemas', 'dependencies']) {
    const map = schema[keyword];
    if (!isJsonObject(map)) continue;
    for (const [name, member] of Object.entries(map)) add(member, [...path, keyword, name]);
  }
  return found;
}

function refTarget(root: unknown, ref: unknown): { schema: unknown; path: string[] } | null {
  if (typeof ref !== 'string') return null;
  const path = refPath(ref);
  if (path === null) return null;
  let current: unknown = root;
  for (const segment of path) {
    if (!isJsonObject(current) && !Array.isArray(current)) return null;
    if (!Object.hasOwn(current, segment)) return null;
    current = (current as Record<string, unknown>)[segment];
  }
  return { schema: current, path };
}
