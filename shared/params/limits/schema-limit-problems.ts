import { compileLinearPattern } from '../formats/linear-pattern/linear-pattern';
import { isJsonObject } from '../types/json-value';
import { jsonExcess } from './json-excess';
import { SCHEMA_LIMITS, type SchemaLimit } from './limits';

/** A table of the same shape as SCHEMA_LIMITS (tests check margins with smaller ones). */
export type SchemaLimits = { readonly [limit in SchemaLimit]: number };

import { characterCount, withinCharacters } from './character-count';
import { costBound } from './cost-bound';
import { refProblem } from './ref-expansion';
import { pointerOf, type SchemaNode, schemaNodes } from './schema-walk';

/** Rules that have no number: refs stay local and acyclic, patterns run on the linear engine. */
type SchemaRule =
  | 'localRefsOnly'
  | 'noRecursiveRef'
  | 'linearPatterns'
  | 'noProtoName'
  | 'noSchemaIds';

/** One limit a node-supplied schema breaks, and where (a JSON Pointer into that schema). */
export interface SchemaLimitProblem {
  readonly limit: SchemaLimit | SchemaRule;
  /** The limit's value; null for the rules without one. */
  readonly limitValue: number | null;
  readonly at: string;
  readonly detail: string;
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;
/** Keywords that give a schema its own base URI or a name `$ref` could reach it by. */
const SCHEMA_ID_KEYWORDS = [
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
] as const;

/**
 * Checks one parameters schema against SCHEMA_LIMITS before anything expensive touches it (the
 * meta-schema check, ajv's compile). Size and depth come first and stop the check: every later
 * step walks the schema, which is only cheap once it is known to be small.
 */
export function schemaLimitProblems(
  schema: unknown,
  limits: SchemaLimits = SCHEMA_LIMITS,
): SchemaLimitProblem[] {
  const limited = (limit: SchemaLimit, at: string, detail: string): SchemaLimitProblem => ({
    limit,
    limitValue: limits[limit],
    at,
    detail,
  });
  const excess = jsonExcess(schema, {
    bytes: limits.schemaBytes,
    depth: limits.schemaDepth,
    arrayItems: Number.POSITIVE_INFINITY,
  });
  if (excess !== null) {
    const limit = excess.bound === 'depth' ? 'schemaDepth' : 'schemaBytes';
    const detail =
      excess.bound === 'depth'
        ? `nested ${excess.found} levels deep`
        : `more than ${limits.schemaBytes} bytes of JSON`;
    return [limited(limit, pointerOf(excess.path), detail)];
  }
  const nodes = schemaNodes(schema);
  const problems = nodes.flatMap((node) => nodeProblems(node, limits));
  const ref = refProblem(schema, nodes, limits.expandedSubschemas);
  if (ref !== null) {
    switch (ref.kind) {
      case 'not_local':
        problems.push(rule('localRefsOnly', ref.at, 'only "#" and "#/..." references are allowed'));
        break;
      case 'not_a_subschema':
        problems.push(rule('localRefsOnly', ref.at, 'the $ref does not point to a subschema'));
        break;
      case 'recursive':
        problems.push(rule('noRecursiveRef', ref.at, 'following this $ref comes back to it'));
        break;
      case 'expands_too_far':
        problems.push(
          limited('expandedSubschemas', ref.at, `${ref.found} subschemas once $refs are expanded`),
        );
        break;
    }
  }
  if (problems.length > 0) return problems;
  // Only a schema within every other limit is costed: the walk relies on them (local, acyclic refs).
  const cost = costBound(schema);
  if (cost.stepsPerByte > limits.stepsPerByte) {
    const found = Number.isFinite(cost.stepsPerByte) ? String(cost.stepsPerByte) : 'unbounded';
    const detail = `validating one byte of arguments may take ${found} steps: ${cost.detail}`;
    return [limited('stepsPerByte', cost.at, detail)];
  }
  return [];
}

/** The message of a problem: the command, the limit and its value, what was found, where. */
export function schemaLimitMessage(command: string, problem: SchemaLimitProblem): string {
  const value = problem.limitValue === null ? '' : ` = ${problem.limitValue}`;
  return `${command}: the parameters schema breaks the limit ${problem.limit}${value} at ${problem.at}: ${problem.detail}`;
}

/** The top-level parameter a schema location is under, if any (`#/properties/when/...`). */
export function parameterAt(pointer: string): string | null {
  const [, keyword, name] = pointer.split('/');
  return keyword === 'properties' && name !== undefined
    ? name.replaceAll('~1', '/').replaceAll('~0', '~')
    : null;
}

function nodeProblems({ schema, path }: SchemaNode, limits: SchemaLimits): SchemaLimitProblem[] {
  const limited = (limit: SchemaLimit, at: string, detail: string): SchemaLimitProblem => ({
    limit,
    limitValue: limits[limit],
    at,
    detail,
  });
  const problems: SchemaLimitProblem[] = [];
  for (const keyword of COMBINATORS) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > limits.combinatorBranches) {
      const at = pointerOf([...path, keyword]);
      problems.push(limited('combinatorBranches', at, `${branches.length} branches`));
    }
  }
  if (Array.isArray(schema.enum) && schema.enum.length > limits.enumValues) {
    const at = pointerOf([...path, 'enum']);
    problems.push(limited('enumValues', at, `${schema.enum.length} values`));
  }
  // ajv resolves `$ref` against the nearest `$id` and follows anchors; the walks here resolve
  // against the root. Refused rather than resolved differently (hostile row 1: a recursion hidden
  // under an `$id` passed the check); the real node uses none of them.
  for (const keyword of SCHEMA_ID_KEYWORDS) {
    if (Object.hasOwn(schema, keyword)) {
      const at = pointerOf([...path, keyword]);
      problems.push(rule('noSchemaIds', at, `${keyword} is not supported in a node's schema`));
    }
  }
  // ajv drops a `__proto__` property (allSchemaProperties), so it could never be checked: every
  // call naming it would be refused, and a required one would never be found. Refused here,
  // by name; every other name (`constructor`, `toString`) is validated as data (`ownProperties`).
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (Object.hasOwn(properties, '__proto__') || required.includes('__proto__')) {
    problems.push(
      rule('noProtoName', pointerOf(path), '"__proto__" cannot be a parameter or property name'),
    );
  }
  if (typeof schema.pattern === 'string') {
    problems.push(...patternProblems(schema.pattern, pointerOf([...path, 'pattern']), limits));
  }
  if (typeof schema.patternProperties === 'object' && schema.patternProperties !== null) {
    for (const key of Object.keys(schema.patternProperties)) {
      problems.push(
        ...patternProblems(key, pointerOf([...path, 'patternProperties', key]), limits),
      );
    }
  }
  return problems;
}

/** Problems of one pattern: its length, then whether the linear engine can run it. */
function patternProblems(pattern: string, at: string, limits: SchemaLimits): SchemaLimitProblem[] {
  const limited = (limit: SchemaLimit, detail: string): SchemaLimitProblem => ({
    limit,
    limitValue: limits[limit],
    at,
    detail,
  });
  if (!withinCharacters(pattern, limits.patternCharacters)) {
    return [limited('patternCharacters', `${characterCount(pattern)} characters`)];
  }
  const compiled = compileLinearPattern(pattern, limits.patternStates);
  if (compiled.ok) return [];
  // A pattern that is not ECMAScript at all is left to the compile step, which says why.
  return compiled.issues.flatMap(({ kind, reason }) => {
    if (kind === 'invalid') return [];
    return kind === 'too_large'
      ? [limited('patternStates', reason)]
      : [rule('linearPatterns', at, `the pattern cannot run on the linear engine: ${reason}`)];
  });
}

function rule(limit: SchemaRule, at: string, detail: string): SchemaLimitProblem {
  return { limit, limitValue: null, at, detail };
}
