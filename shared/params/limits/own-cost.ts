import { FORMAT_MAX_LENGTHS } from '../formats/bounded-formats';
import { compileLinearPattern } from '../formats/linear-pattern/linear-pattern';
import { isJsonObject, type JsonObject } from '../types/json-value';
import { ARGUMENT_LIMITS, SCHEMA_LIMITS } from './limits';

/**
 * Steps per byte a format check may cost: ajv-formats' URL checks were measured at about 1 µs a
 * character on their longest allowed strings (2,048), 64 steps of the linear pattern engine; the
 * date formats are one anchored expression each.
 */
const FORMAT_STEPS_PER_BYTE = 64;
/**
 * `uniqueItems` compares every item with every other: per byte of the array, one comparison per
 * item (arrayItems). A comparison is a byte of deep equality, measured at about 2 ns: 8 a step.
 */
const UNIQUE_ITEMS_COMPARES_PER_STEP = 8;
const DATE_FORMATS: ReadonlySet<string> = new Set(['date', 'time', 'date-time', 'duration']);

/** What the keywords of one subschema cost, per byte of the value they check. */
export interface OwnCost {
  /** On the value's own bytes (its scalar text, its names and brackets). */
  readonly steps: number;
  /**
   * On every byte inside the value too: `uniqueItems` compares whole items, `enum` and `const`
   * compare the whole value. Added to what the value's children cost, not just compared with it.
   */
  readonly deep: number;
  /** The largest part, for the message. */
  readonly detail: string;
}

/** Steps per byte of the keywords of `schema` itself, and the largest of them, for the message. */
export function ownCost(schema: JsonObject): OwnCost {
  const parts: [number, string][] = [[1 + Object.keys(schema).length, 'keywords']];
  if (Array.isArray(schema.enum))
    parts.push([schema.enum.length, `${schema.enum.length} enum values`]);
  if (typeof schema.pattern === 'string') {
    const size = patternSize(schema.pattern);
    parts.push([size, `a pattern of ${size} automaton states on every character`]);
  }
  if (typeof schema.format === 'string' && FORMAT_MAX_LENGTHS[schema.format] !== undefined) {
    const steps = DATE_FORMATS.has(schema.format) ? 4 : FORMAT_STEPS_PER_BYTE;
    parts.push([steps, `the format ${schema.format}`]);
  }
  if (isJsonObject(schema.patternProperties)) {
    const keys = Object.keys(schema.patternProperties);
    const states = keys.reduce((sum, pattern) => sum + patternSize(pattern), 0);
    parts.push([states, `${keys.length} patternProperties keys (${states} states) on every name`]);
  }
  if (isJsonObject(schema.properties)) {
    const names = Object.keys(schema.properties).length;
    parts.push([names, `${names} property names compared with every name`]);
  }
  if (Array.isArray(schema.required)) parts.push([schema.required.length, 'required names']);
  const dependent = dependentNames(schema);
  if (dependent > 0) parts.push([dependent, `${dependent} names required by other names`]);
  if (schema.uniqueItems === true) {
    const steps = ARGUMENT_LIMITS.arrayItems / UNIQUE_ITEMS_COMPARES_PER_STEP;
    parts.push([steps, `uniqueItems (every item compared with ${ARGUMENT_LIMITS.arrayItems})`]);
  }
  const steps = parts.reduce((sum, [cost]) => sum + cost, 0);
  const largest = parts.reduce((best, part) => (part[0] > best[0] ? part : best));
  const deep =
    (schema.uniqueItems === true
      ? ARGUMENT_LIMITS.arrayItems / UNIQUE_ITEMS_COMPARES_PER_STEP
      : 0) +
    (Array.isArray(schema.enum) ? schema.enum.length : 0) +
    (Object.hasOwn(schema, 'const') ? 1 : 0);
  return { steps, deep, detail: largest[1] };
}

function patternSize(pattern: string): number {
  const compiled = compileLinearPattern(pattern, SCHEMA_LIMITS.patternStates);
  // One that does not compile is refused by the compile step, which says why.
  return compiled.ok ? compiled.value.size : 0;
}

/** Names `dependentRequired` and array-valued `dependencies` require: each checked per object. */
function dependentNames(schema: JsonObject): number {
  let names = 0;
  for (const keyword of ['dependentRequired', 'dependencies']) {
    const map = schema[keyword];
    if (!isJsonObject(map)) continue;
    for (const value of Object.values(map)) if (Array.isArray(value)) names += value.length;
  }
  return names;
}
