import { parseJsonExact } from '../../params';
import { type LenientJsonResult, readLenientJson } from './lenient-json-reader';

/**
 * Parses JSON written by a model. Valid JSON is parsed as is (`repaired: []`); otherwise only the
 * unambiguous repairs of `JsonRepair` are tried, and anything still broken comes back with a
 * reason, for the engine to turn into a retry. A number a double cannot hold exactly (`1e400`, an
 * integer beyond 2^53) is kept as its text, for the check to refuse by name (never null, never
 * rounded).
 */
export function parseJsonLenient(text: string): LenientJsonResult {
  try {
    return { ok: true, value: parseJsonExact(text), repaired: [] };
  } catch {
    // Not strict JSON: fall through to the lenient reader.
  }
  return readLenientJson(text);
}
