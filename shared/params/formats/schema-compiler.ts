import Ajv, { type AnySchema } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types';
import { SCHEMA_LIMITS } from '../limits/limits';
import { addBoundedFormats } from './bounded-formats';
import { compileLinearPattern } from './linear-pattern/linear-pattern';

/**
 * ajv's `code.regExp`: every `pattern` and `patternProperties` key runs on the linear engine, so
 * no argument can make a node's pattern backtrack. The limits check refuses the patterns it cannot
 * run before ajv compiles; one that still gets here is a bug, so it throws (ajv's contract).
 */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = compileLinearPattern(pattern, SCHEMA_LIMITS.patternStates);
    if (compiled.ok) return compiled.value;
    throw new Error(compiled.issues.map((issue) => issue.reason).join('; '));
  },
  { code: 'linearRegExp' },
);

const OPTIONS = {
  allErrors: true,
  // Unknown keywords such as `_refinable` are part of the wire contract, not mistakes.
  strict: false,
  // The core does no I/O: ajv must not print warnings on its own.
  logger: false,
  $data: false,
  ownProperties: true,
} as const;

/**
 * A fresh ajv instance with ajv-formats and our stricter ISO formats (see iso-formats.ts), each
 * bounded by length (bounded-formats.ts). One per
 * command set: ajv keeps every compiled schema for its lifetime, so a shared instance would grow
 * forever; a per-set one is collected with its set. Meta-schema checks are left to
 * `schemaProblem`, because compiling the meta-schema costs milliseconds per instance.
 */
export function createSchemaCompiler(): Ajv {
  // ajv's code optimizer costs about a third of the compile time and saves nothing measurable
  // per call on schemas this small.
  const ajv = new Ajv({
    ...OPTIONS,
    validateSchema: false,
    code: { optimize: false, regExp: linearRegExp },
  });
  addBoundedFormats(ajv);
  return ajv;
}

// Only ever used for `validateSchema`, which compiles nothing but the meta-schema: it cannot leak.
let metaSchemaChecker: Ajv | undefined;

/** Why `schema` is not a valid JSON Schema (draft-07 meta-schema), or null when it is one. */
export function schemaProblem(schema: object | boolean): string | null {
  metaSchemaChecker ??= new Ajv({ ...OPTIONS });
  try {
    const valid = metaSchemaChecker.validateSchema(schema as AnySchema);
    if (valid === true) return null;
    return metaSchemaChecker.errorsText(metaSchemaChecker.errors, { dataVar: 'schema' });
  } catch (error) {
    // ajv throws instead of answering for some shapes (a `$schema` that is not a string...).
    return error instanceof Error ? error.message : String(error);
  }
}
