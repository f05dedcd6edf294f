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

/** Steps per byte of the keywords of `schema` itself, and the largest of them, for the message. */
export function ownCost(schema: JsonObject): { readonly steps: number; readonly detail: string } {
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
  if (schema.uniqueItems === true) {
    const steps = ARGUMENT_LIMITS.arrayItems / UNIQUE_ITEMS_COMPARES_PER_STEP;
    parts.push([steps, `uniqueItems (every item compared with ${ARGUMENT_LIMITS.arrayItems})`]);
  }
  const steps = parts.reduce((sum, [cost]) => sum + cost, 0);
  const largest = parts.reduce((best, part) => (part[0] > best[0] ? part : best));
  return { steps, detail: largest[1] };
}

function patternSize(pattern: string): number {
  const compiled = compileLinearPattern(pattern, SCHEMA_LIMITS.patternStates);
  // One that does not compile is refused by the compile step, which says why.
  return compiled.ok ? compiled.value.size : 0;
}
