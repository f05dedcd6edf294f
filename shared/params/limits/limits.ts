/**
 * The documented bounds of the parameter system (docs/decisions/2026-11-23-schema-limits.md).
 * Each one keeps the work of one request to a few milliseconds whatever a node or a model sends;
 * the real node's registration (test/fixtures) uses less than a third of every one of them.
 */

/** Checked on every node-supplied schema at conversation/start; a violation is a 400 there. */
export const SCHEMA_LIMITS = {
  /** Bytes of one tool's parameters schema as JSON (the real node's largest: 595). */
  schemaBytes: 16_384,
  /** Nesting of objects and arrays in one parameters schema (the real node's deepest: 4). */
  schemaDepth: 12,
  /** Subschemas of one tool once every `$ref` is expanded: what one validation can visit. */
  expandedSubschemas: 1_000,
  /** Branches of one `anyOf`, `oneOf` or `allOf`. */
  combinatorBranches: 16,
  /** Values of one `enum` or `enum_values` (ajv's meta-schema check is quadratic in it). */
  enumValues: 256,
  /** Characters of one `pattern` or `patternProperties` key. */
  patternCharacters: 256,
  /** Automaton states one pattern unrolls to (matching costs input length x states). */
  patternStates: 1_000,
  /** Nesting of the whole command set, checked before anything else walks it. */
  registrationDepth: 32,
  /**
   * Validation steps per byte of arguments, as cost-bound.ts bounds them (a step is at most
   * about 10 ns, one state of the linear pattern engine on one character, when a run meets a new
   * set of states at every character; a run that meets the same sets again looks its steps up):
   * with TURN_LIMITS.argumentBytes read per turn, validation stays under 20 ms a request. The
   * real node's costliest tool: 14.
   */
  stepsPerByte: 200,
} as const;

/** What one turn (one request) reads of the model's calls, whatever their number. */
export const TURN_LIMITS = {
  /**
   * Characters of arguments (compact JSON) validated in one turn, one call at its limit; calls
   * past it are refused unread, so the turn's validation is at most argumentBytes x stepsPerByte
   * steps (8,192 x 200 x 10 ns: under 20 ms; at 16 KiB the costliest accepted schema measured
   * 46 ms of a request's 80-130 ms, issue 18). The real node's arguments are tens of bytes.
   */
  argumentBytes: 8_192,
} as const;

/** Checked on one tool call's arguments before normalization and validation; over: a retry. */
export const ARGUMENT_LIMITS = {
  /** Bytes of the arguments as compact JSON: at most what a turn validates (TURN_LIMITS). */
  bytes: 8_192,
  /** Nesting of objects and arrays (`{"a": [1]}` is 2). */
  depth: 8,
  /** Items of one array (bounds ajv's quadratic `uniqueItems` on objects). */
  arrayItems: 256,
} as const;

export type SchemaLimit = keyof typeof SCHEMA_LIMITS;
