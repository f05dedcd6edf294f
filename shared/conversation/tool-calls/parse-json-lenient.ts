import { type LenientJsonResult, readLenientJson } from './lenient-json-reader';

/**
 * Parses JSON written by a model. Valid JSON is parsed as is (`repaired: []`); otherwise only the
 * unambiguous repairs of `JsonRepair` are tried, and anything still broken comes back with a
 * reason, for the engine to turn into a retry.
 */
export function parseJsonLenient(text: string): LenientJsonResult {
  try {
    return { ok: true, value: JSON.parse(text), repaired: [] };
  } catch {
    // Not strict JSON: fall through to the lenient reader.
  }
  return readLenientJson(text);
}
